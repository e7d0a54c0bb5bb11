// Re-derivation's first step: every live belief formation made (it carries a
// policy_version) is retired, one event each; explicit beliefs stay. Returns how many.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
MATCH (b:Belief)
WHERE b.principal = $principal AND b.policy_version IS NOT NULL
  AND b.superseded_at IS NULL AND b.state <> 'retired'
WITH clock, collect(b) AS formed
SET clock.seq = clock.seq + size(formed)
WITH clock.seq - size(formed) AS base, formed
UNWIND range(0, size(formed) - 1) AS i
WITH base + i + 1 AS seq, formed[i] AS b
SET b.retired_from = b.state, b.state = 'retired', b.valid_to = $now, b.retired_at = $now,
    b.retired_reason = $reason
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'belief.retired', node_id: b.id,
  actor: $actor, at: $now
})-[:ABOUT]->(b)
RETURN count(b) AS retired
