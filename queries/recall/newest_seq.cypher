// The principal's newest write generation (at $as_of, when given): what read-time
// decay measures a belief's age from. Anchor state changes seen by `graphmem index` are
// observations of code, not memory writes, and do not age anything.
MATCH (e:MemoryEvent)
WHERE e.principal = $principal AND ($as_of IS NULL OR e.at <= $as_of)
  AND e.type <> 'anchor.changed'
RETURN e.seq AS seq
ORDER BY e.seq DESC
LIMIT 1
