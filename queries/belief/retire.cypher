// Retires one live belief (design §2: lifecycle state): it stops being valid now and
// drops out of live reads; the node, its provenance and its history stay, and
// `retired_from` keeps the state it had (what an `as_of` read of the past weighs).
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + 1
WITH clock.seq AS seq
MATCH (b:Belief {id: $id})
WHERE b.principal = $principal
SET b.retired_from = b.state, b.state = 'retired', b.valid_to = $now, b.retired_at = $now,
    b.retired_reason = $reason
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'belief.retired', node_id: b.id,
  actor: $actor, at: $now
})-[:ABOUT]->(b)
RETURN seq
