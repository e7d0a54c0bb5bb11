// A page of the principal's episodes and beliefs below secret after creation seq
// $after, with every text the secret finder reads (`reindex` raises the ones written
// before levels existed), oldest first. Each branch keeps its own first $limit.
CALL () {
  MATCH (e:Episode)
  WHERE e.principal = $principal AND e.seq > $after
  WITH e ORDER BY e.seq LIMIT $limit
  RETURN e.id AS id, e.seq AS seq, e.sensitivity AS level,
    [e.title, coalesce(e.text, '')] + coalesce(e.observations, [])
      + coalesce(e.inferences, []) + coalesce(e.decisions, [])
      + coalesce(e.failed_attempts, []) + coalesce(e.unresolved, []) AS texts
  UNION ALL
  MATCH (b:Belief)
  WHERE b.principal = $principal AND b.seq > $after
  WITH b ORDER BY b.seq LIMIT $limit
  RETURN b.id AS id, b.seq AS seq, b.sensitivity AS level,
    [b.statement, coalesce(b.subject, '')] AS texts
}
RETURN id, seq, level, texts
ORDER BY seq
LIMIT $limit
