// Lexical arm over beliefs: Lucene BM25 restricted to one principal's token, then the
// exact principal filter. $lucene holds only word terms built by graphmem.
CALL db.index.fulltext.queryNodes('belief_text_v2', $lucene, {limit: $limit})
YIELD node, score
WHERE node.principal = $principal
RETURN node.id AS id
ORDER BY score DESC, node.id
