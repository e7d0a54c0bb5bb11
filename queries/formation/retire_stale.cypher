// Expiry's retirement (docs/formation.md#expiry): retires formed beliefs stale since at
// or before $retire_before, as belief/retire does (valid until $now, `retired_from`
// keeps the state; node, provenance and history stay), one belief.retired event each.
// Checked again under the clock lock: a belief confirmed since (no longer stale),
// retired or superseded is skipped. Returns the ids retired.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
UNWIND $ids AS id
MATCH (b:Belief {id: id})
USING INDEX SEEK b:Belief(id)
WHERE b.principal = $principal AND b.policy_version IS NOT NULL AND b.authority <> 'user'
  AND b.superseded_at IS NULL AND b.state <> 'retired'
  AND b.stale_since <= $retire_before
WITH clock, b
ORDER BY b.id
WITH clock, collect(b) AS due
SET clock.seq = clock.seq + size(due)
WITH clock.seq - size(due) AS base, due
UNWIND range(0, size(due) - 1) AS i
WITH base + i + 1 AS seq, due[i] AS b
SET b.retired_from = b.state, b.state = 'retired', b.valid_to = $now, b.retired_at = $now,
    b.retired_reason = $reason
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'belief.retired', node_id: b.id,
  actor: $actor, at: $now
})-[:ABOUT]->(b)
RETURN b.id AS id
