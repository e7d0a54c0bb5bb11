// Lexical arm: Lucene BM25 over one full-text index, one principal's hits, best first.
// $terms and $scoped hold only word terms built by graphmem ($scoped adds the
// principal's token as a required clause).
//
// The principal's hits among the index-wide top $limit are, in order, the head of its
// own ranking: the token clause adds the same score to each of its documents. So the
// cheaper unscoped query answers whenever it yields $wanted of them or exhausts the
// index; only when other principals crowd the head is the scoped query run. Either
// way nothing leaves this query unless it belongs to $principal.
CALL db.index.fulltext.queryNodes($index, $terms, {limit: $limit})
YIELD node, score
WITH collect({node: node, score: score}) AS head
WITH [hit IN head WHERE hit.node.principal = $principal] AS own,
     size(head) < $limit AS exhausted
CALL (own, exhausted) {
  WITH own, exhausted
  WHERE exhausted OR size(own) >= $wanted
  UNWIND own AS hit
  RETURN hit.node AS node, hit.score AS score
  UNION
  WITH own, exhausted
  WHERE NOT exhausted AND size(own) < $wanted
  CALL db.index.fulltext.queryNodes($index, $scoped, {limit: $wanted})
  YIELD node, score
  WHERE node.principal = $principal
  RETURN node, score
}
RETURN node.id AS id, node.seq AS seq
ORDER BY score DESC, node.id
