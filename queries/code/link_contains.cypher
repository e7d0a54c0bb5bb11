// Links symbols to their container: the enclosing symbol, else the file. Each child is
// new or had its old link deleted by code/update_symbols in this transaction, so the
// link is created, not merged.
// The child's key is projected first and the hints name the uniqueness constraints'
// indexes: written as `key: link.child` the planner scanned the whole index (or sought
// by principal and filtered) once per link, quadratic in a cold index.
UNWIND $links AS link
WITH link, link.child AS child_key
MATCH (child:Symbol {principal: $principal, project: $project, key: child_key})
USING INDEX child:Symbol(principal, project, key)
OPTIONAL MATCH (symbol:Symbol {principal: $principal, project: $project, key: link.parent})
USING INDEX symbol:Symbol(principal, project, key)
OPTIONAL MATCH (file:File {principal: $principal, project: $project, path: link.path})
USING INDEX file:File(principal, project, path)
WITH child, coalesce(symbol, file) AS container
CREATE (container)-[:CONTAINS]->(child)
