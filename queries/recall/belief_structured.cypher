// Structured arm over beliefs: exact matches on anchor key, anchored file (a key
// prefix '{lang}:{path}::') or subject. Newest first; ties by id.
// Planned once per server (replan=skip): every node it starts from is named by an index
// hint, so the plan does not depend on statistics, and a store that grows or gains
// principals keeps it instead of replanning in the middle of a recall.
CYPHER replan=skip
CALL () {
  UNWIND $keys AS key
  MATCH (b:Belief {anchor_key: key})
  USING INDEX SEEK b:Belief(anchor_key)
  RETURN b, 0 AS kind
  UNION
  UNWIND $prefixes AS prefix
  MATCH (b:Belief)
  USING INDEX SEEK b:Belief(anchor_key)
  WHERE b.anchor_key STARTS WITH prefix
  RETURN b, 1 AS kind
  UNION
  UNWIND $subjects AS subject
  MATCH (b:Belief)
  USING INDEX SEEK b:Belief(principal, subject)
  WHERE b.principal = $principal AND b.subject = subject
  RETURN b, 2 AS kind
}
WITH b, min(kind) AS kind
WHERE b.principal = $principal
RETURN b.id AS id, b.seq AS seq
ORDER BY kind, b.seq DESC, b.id
LIMIT $limit
