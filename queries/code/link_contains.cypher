// Links symbols to their container: the enclosing symbol, else the file. Each child is
// new or had its old link deleted by code/update_symbols in this transaction, so the
// link is created, not merged.
// Every lookup seeks the uniqueness constraint's index (USING INDEX SEEK): with a plain
// USING INDEX the planner of a small or just-emptied store scanned the whole index and
// filtered, once per link (3M entries read for 1,546 links), quadratic in a cold index.
UNWIND $links AS link
WITH link, link.child AS child_key
MATCH (child:Symbol {principal: $principal, project: $project, key: child_key})
USING INDEX SEEK child:Symbol(principal, project, key)
OPTIONAL MATCH (symbol:Symbol {principal: $principal, project: $project, key: link.parent})
USING INDEX SEEK symbol:Symbol(principal, project, key)
OPTIONAL MATCH (file:File {principal: $principal, project: $project, path: link.path})
USING INDEX SEEK file:File(principal, project, path)
WITH child, coalesce(symbol, file) AS container
CREATE (container)-[:CONTAINS]->(child)
