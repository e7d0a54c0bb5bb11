// The principal's newest write generation (at $as_of, when given): what read-time
// decay measures a belief's age from. Anchor state changes seen by `graphmem index` are
// observations of code, not memory writes, and do not age anything.
// Planned once per server (replan=skip): every node it starts from is named by an index
// hint, so the plan does not depend on statistics, and a store that grows or gains
// principals keeps it instead of replanning in the middle of a recall.
CYPHER replan=skip
MATCH (e:MemoryEvent {principal: $principal})
USING INDEX SEEK e:MemoryEvent(principal, seq)  // the index whose order the read keeps
WHERE e.seq IS NOT NULL AND ($as_of IS NULL OR e.at <= $as_of)
  AND e.type <> 'anchor.changed'
RETURN e.seq AS seq
// Backwards in the order of index memory_event_principal_seq (both its properties):
// Neo4j stops at the first event that qualifies. Ordered by seq alone it read every
// event of the principal for each recall with decay (at 110k events: 110k rows,
// 50-100 ms).
ORDER BY e.principal DESC, e.seq DESC
LIMIT 1
