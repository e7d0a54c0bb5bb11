// One principal's change log after a seq, oldest first (`graphmem events`).
MATCH (e:MemoryEvent)
WHERE e.principal = $principal AND e.seq > $since
RETURN e {.*} AS event
ORDER BY e.seq
LIMIT $limit
