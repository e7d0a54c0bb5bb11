// Expiry's demotion (docs/formation.md#expiry): marks formed beliefs stale at $now, one
// belief.stale event each. Checked again under the clock lock: a belief that was
// confirmed since, turned stale, retired, superseded or is of user authority is
// skipped (seqs are reserved only for the beliefs marked). Returns the ids marked.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
UNWIND $ids AS id
MATCH (b:Belief {id: id})
USING INDEX SEEK b:Belief(id)
WHERE b.principal = $principal AND b.policy_version IS NOT NULL AND b.authority <> 'user'
  AND b.superseded_at IS NULL AND b.state <> 'retired' AND b.stale_since IS NULL
  AND b.last_confirmed_at <= $stale_before
WITH clock, b
ORDER BY b.id
WITH clock, collect(b) AS due
SET clock.seq = clock.seq + size(due)
WITH clock.seq - size(due) AS base, due
UNWIND range(0, size(due) - 1) AS i
WITH base + i + 1 AS seq, due[i] AS b
SET b.stale_since = $now
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'belief.stale', node_id: b.id,
  actor: $actor, at: $now
})-[:ABOUT]->(b)
RETURN b.id AS id
