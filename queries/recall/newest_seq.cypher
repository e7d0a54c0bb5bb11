// The principal's newest write generation (at $as_of, when given): what read-time
// decay measures a belief's age from.
MATCH (e:MemoryEvent)
WHERE e.principal = $principal AND ($as_of IS NULL OR e.at <= $as_of)
RETURN e.seq AS seq
ORDER BY e.seq DESC
LIMIT 1
