// Re-derivation's second step, last: one formation.reset event, once every episode is
// due again and the rejected-candidate log is cleared (in pages before it).
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + 1
CREATE (:MemoryEvent {
  seq: clock.seq, principal: $principal, type: 'formation.reset', policy: $policy,
  actor: $actor, at: $now
})
RETURN clock.seq AS seq
