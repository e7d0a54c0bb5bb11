// Deletes symbols (and their edges) by key.
UNWIND $keys AS key
MATCH (s:Symbol {principal: $principal, project: $project, key: key})
DETACH DELETE s
