// Re-links ANCHORED_TO from beliefs whose anchor_key names new symbols.
// Each symbol by the key constraint's index first (hinted: see code/link_contains).
UNWIND $keys AS key
MATCH (s:Symbol {principal: $principal, project: $project, key: key})
USING INDEX SEEK s:Symbol(principal, project, key)
MATCH (b:Belief {anchor_key: key})
WHERE b.principal = $principal
MERGE (b)-[:ANCHORED_TO]->(s)
