// Updates the hash and lines of symbols whose key is unchanged; drops their
// CONTAINS link when their container changed (link_contains re-creates it).
UNWIND $symbols AS update
MATCH (s:Symbol {principal: $principal, project: $project, key: update.props.key})
USING INDEX SEEK s:Symbol(principal, project, key)  // see code/link_contains
SET s += update.props
WITH s, update
WHERE update.relink
MATCH ()-[link:CONTAINS]->(s)
DELETE link
