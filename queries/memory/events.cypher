// One principal's change log after a seq, oldest first (`graphmem events`), each event
// with `about`: the statement or title of the node it is about, while that exists.
// A secret node's text is never shown here: `about`, and the statement a rejected
// candidate of a secret episode logged, read $redacted.
MATCH (e:MemoryEvent)
USING INDEX SEEK e:MemoryEvent(principal, seq)  // the index whose order the read keeps
WHERE e.principal = $principal AND e.seq > $since
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
ORDER BY e.principal, e.seq  // index order: stops after $limit (see view_events)
LIMIT $limit
