// Sensitivity (issue 14, design §11): every episode and belief carries a level, and
// every read surface shows only the levels at or below its ceiling. What was written
// before levels existed is internal, the default (`graphmem reindex` raises the old
// nodes whose text holds a secret: the secret finder is not expressible in Cypher).
MATCH (n:Episode)
WHERE n.sensitivity IS NULL
CALL (n) {
  SET n.sensitivity = 'internal'
} IN TRANSACTIONS OF 5000 ROWS;
MATCH (n:Belief)
WHERE n.sensitivity IS NULL
CALL (n) {
  SET n.sensitivity = 'internal'
} IN TRANSACTIONS OF 5000 ROWS;
