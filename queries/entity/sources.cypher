// A page of the principal's episodes and beliefs after creation seq $after, with the
// texts their entity names come from (the back-fill of `reindex`), oldest first. Each
// branch keeps its own first $limit, so a page reads O(limit) rows past the seq index,
// not everything after $after.
CALL () {
  MATCH (e:Episode)
  WHERE e.principal = $principal AND e.seq > $after
  WITH e ORDER BY e.seq LIMIT $limit
  RETURN 'episode' AS label, e.id AS id, e.seq AS seq,
    {title: e.title, text: e.text, paths: e.paths} AS props
  UNION ALL
  MATCH (b:Belief)
  WHERE b.principal = $principal AND b.seq > $after
  WITH b ORDER BY b.seq LIMIT $limit
  RETURN 'belief' AS label, b.id AS id, b.seq AS seq,
    {statement: b.statement, subject: b.subject} AS props
}
RETURN label, id, seq, props
ORDER BY seq
LIMIT $limit
