// Marks an episode consolidated under one policy, with its event; returns nothing if
// it already was (a concurrent or repeated run), which aborts the caller's writes.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + 1
WITH clock.seq AS seq
MATCH (e:Episode {id: $episode_id})
WHERE e.principal = $principal AND e.consolidated_at IS NULL
SET e.consolidated_at = $now, e.consolidation_policy = $policy
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'episode.consolidated', node_id: e.id,
  policy: $policy, actor: $actor, at: $now
})-[:ABOUT]->(e)
RETURN e.id AS id
