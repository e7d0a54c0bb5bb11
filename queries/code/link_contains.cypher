// Links symbols to their container: the enclosing symbol, else the file.
UNWIND $links AS link
MATCH (child:Symbol {principal: $principal, project: $project, key: link.child})
OPTIONAL MATCH (symbol:Symbol {principal: $principal, project: $project, key: link.parent})
OPTIONAL MATCH (file:File {principal: $principal, project: $project, path: link.path})
WITH child, coalesce(symbol, file) AS container
MERGE (container)-[:CONTAINS]->(child)
