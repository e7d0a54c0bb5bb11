// A page of the principal's episodes and beliefs after creation seq $after, with their
// properties (`reindex` runs the secret finder over their texts to raise the ones
// written before levels existed), oldest first. Each branch keeps its own first $limit.
CALL () {
  MATCH (e:Episode)
  WHERE e.principal = $principal AND e.seq > $after
  WITH e ORDER BY e.seq LIMIT $limit
  RETURN 'episode' AS label, e.id AS id, e.seq AS seq, properties(e) AS props
  UNION ALL
  MATCH (b:Belief)
  WHERE b.principal = $principal AND b.seq > $after
  WITH b ORDER BY b.seq LIMIT $limit
  RETURN 'belief' AS label, b.id AS id, b.seq AS seq, properties(b) AS props
}
RETURN label, id, seq, props
ORDER BY seq
LIMIT $limit
