// Drifted beliefs: live beliefs whose code changed since they were stated
// A belief is drifted when the symbol it is ANCHORED_TO now hashes differently from the
// hash recorded with the belief; shown with the symbol and the file that contains it.
MATCH (b:Belief {principal: $principal})-[anchor:ANCHORED_TO]->(s:Symbol {principal: $principal})
WHERE b.superseded_at IS NULL AND b.state <> 'retired'
  AND b.anchor_hash IS NOT NULL AND s.hash IS NOT NULL AND s.hash <> b.anchor_hash
RETURN b, anchor, s,
  COLLECT {
    MATCH path = (:File {principal: $principal})-[:CONTAINS*1..4]->(s)
    WHERE all(n IN nodes(path) WHERE n.principal = $principal)
    RETURN path
  } AS files
