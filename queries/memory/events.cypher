// One principal's change log after a seq, oldest first (`graphmem events`), each event
// with `about`: the statement or title of the node it is about, while that exists.
MATCH (e:MemoryEvent)
WHERE e.principal = $principal AND e.seq > $since
OPTIONAL MATCH (e)-[:ABOUT]->(n)
RETURN e {.*, about: CASE WHEN n:Belief THEN n.statement WHEN n:Episode THEN n.title END}
  AS event
ORDER BY e.seq
LIMIT $limit
