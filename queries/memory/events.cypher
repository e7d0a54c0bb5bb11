// One principal's change log after a seq, oldest first (`graphmem events`), up to its
// horizon (as memory/view_events reads it: a poller skips nothing), each event
// with `about`: the statement or title of the node it is about, while that exists.
// A secret node's text is never shown here: `about`, and the statement a rejected
// candidate of a secret episode logged, read $redacted.
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
  MATCH (e:MemoryEvent)
  USING INDEX SEEK e:MemoryEvent(principal, seq)  // the index whose order the read keeps
  WHERE e.principal = $principal AND e.seq > $since AND e.seq <= upto
  RETURN e
  ORDER BY e.principal, e.seq  // index order: stops after $limit (see view_events)
  LIMIT $limit
}
OPTIONAL MATCH (e)-[:ABOUT]->(n)
OPTIONAL MATCH (source:Episode {id: e.episode_id})
USING INDEX SEEK source:Episode(id)
WHERE source.principal = $principal
WITH e, n.sensitivity = 'secret' OR source.sensitivity = 'secret' AS secret,
  CASE WHEN n.sensitivity = 'secret' THEN $redacted
       WHEN n:Belief THEN n.statement WHEN n:Episode THEN n.title END AS about
RETURN CASE WHEN secret AND e.statement IS NOT NULL
            THEN e {.*, about: about, statement: $redacted}
            ELSE e {.*, about: about} END AS event
ORDER BY e.seq  // at most $limit rows
