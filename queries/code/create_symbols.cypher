// Creates symbols from their derived properties, each linked to its container: the
// enclosing symbol (created earlier in this statement, or before), else its file.
// One statement instead of a create and a link: code/link_contains would seek every
// new symbol again. The hints name the uniqueness constraints' indexes (see there).
UNWIND $symbols AS symbol
CREATE (s:Symbol)
SET s = symbol.props, s.principal = $principal, s.project = $project
WITH s, symbol.parent AS parent_key, symbol.props.path AS path
OPTIONAL MATCH (parent:Symbol {principal: $principal, project: $project, key: parent_key})
USING INDEX parent:Symbol(principal, project, key)
OPTIONAL MATCH (file:File {principal: $principal, project: $project, path: path})
USING INDEX file:File(principal, project, path)
WITH s, coalesce(parent, file) AS container
CREATE (container)-[:CONTAINS]->(s)
