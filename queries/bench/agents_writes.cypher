// Every episode and belief of the principal written under an idempotency key that
// starts with $prefix: its key, its seq and how many created events it has.
CALL () {
  MATCH (n:Episode {principal: $principal})
  WHERE n.idempotency_key STARTS WITH $prefix
  RETURN n
  UNION ALL
  MATCH (n:Belief {principal: $principal})
  WHERE n.idempotency_key STARTS WITH $prefix
  RETURN n
}
RETURN n.idempotency_key AS key, n.seq AS seq,
       COUNT { (e:MemoryEvent)-[:ABOUT]->(n) WHERE e.type ENDS WITH '.created' } AS created
