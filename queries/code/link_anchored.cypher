// Re-links ANCHORED_TO from beliefs whose anchor_key names new symbols.
UNWIND $keys AS key
MATCH (b:Belief {anchor_key: key})
WHERE b.principal = $principal
MATCH (s:Symbol {principal: $principal, project: $project, key: key})
MERGE (b)-[:ANCHORED_TO]->(s)
