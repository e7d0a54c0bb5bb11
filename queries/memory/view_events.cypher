// The changes a derived view has not seen: one principal's events after a seq, up to
// its horizon (the clock, or below a block a write still holds: store/clock.py), with
// the text to embed for each created node, its stored vectors, a belief's subject and
// when an episode happened (a deletion carries the gone node's seq).
// Planned once per server (replan=skip): every node it starts from is named by an index
// hint, so the plan does not depend on statistics, and a store that grows or gains
// principals keeps it instead of replanning in the middle of a recall.
CYPHER replan=skip
MATCH (clock:Clock {id: 'memory'})
USING INDEX SEEK clock:Clock(id)
WITH clock.seq AS newest  // the clock before the reservations (store/clock.py)
CALL (newest) {
  OPTIONAL MATCH (r:Reservation)
  WHERE r.principal = $principal AND r.first <= newest AND r.expires_at >= datetime()
  RETURN min(r.first) - 1 AS held
}
WITH coalesce(held, newest) AS upto
CALL (upto) {
  MATCH (e:MemoryEvent {principal: $principal})
  USING INDEX SEEK e:MemoryEvent(principal, seq)  // the index whose order the read keeps
  WHERE e.seq > $since AND e.seq <= upto AND e.type IN $types
  // In the order of index memory_event_principal_seq (both its properties): Neo4j then
  // stops after $limit events. Ordered by seq alone it expanded and sorted every event
  // after $since for each page, so a catch-up was quadratic (at 1M events: 2.65 s and
  // 3.9M db hits a page of 2,000, against 0.32 s and 20k).
  RETURN e
  ORDER BY e.principal, e.seq
  LIMIT $limit
}
OPTIONAL MATCH (e)-[:ABOUT]->(n)
RETURN e.seq AS seq, e.type AS type, coalesce(n.seq, e.node_seq) AS node_seq,
       CASE WHEN n:Belief THEN n.statement
            ELSE reduce(text = coalesce(n.title, ''), part IN [coalesce(n.text, '')] |
                        CASE WHEN part = '' THEN text ELSE text + '\n' + part END)
       END AS text,
       CASE WHEN n:Belief THEN n.subject END AS subject,
       CASE WHEN n:Episode THEN coalesce(n.started_at, n.recorded_at) END AS happened_at,
       e.node_id AS node_id,
       // the stored vectors (store/embeddings.py): one :Embedding, the first if a race
       // ever left two
       [v IN [(n)-[:EMBEDDED_AS]->(v) | v] WHERE v:Embedding | [v.model, v.vectors]][0]
         AS embedding
ORDER BY seq  // at most $limit rows, already in this order
