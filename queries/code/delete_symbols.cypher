// Deletes symbols (and their edges) by key, found by the symbol key constraint's index
// (hinted: see code/link_contains).
UNWIND $keys AS key
MATCH (s:Symbol {principal: $principal, project: $project, key: key})
USING INDEX SEEK s:Symbol(principal, project, key)
DETACH DELETE s
