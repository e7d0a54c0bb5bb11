// Re-derivation's second step: every episode of the principal is due for formation
// again, and the rejected-candidate log starts afresh (the run logs them anew). One
// formation.reset event.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + 1
WITH clock.seq AS seq
CALL () {
  MATCH (logged:MemoryEvent {principal: $principal, type: 'candidate.rejected'})
  DETACH DELETE logged
}
CALL () {
  MATCH (e:Episode)
  WHERE e.principal = $principal AND e.consolidated_at IS NOT NULL
  REMOVE e.consolidated_at, e.consolidation_policy
}
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'formation.reset', policy: $policy,
  actor: $actor, at: $now
})
RETURN seq
