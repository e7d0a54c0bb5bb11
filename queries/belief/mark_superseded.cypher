// Records that $new_id supersedes $old_id (design rule 3), with its event. Returns
// nothing when $old_id is no longer live (a concurrent writer got there first).
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + 1
WITH clock.seq AS seq
MATCH (old:Belief {id: $old_id})
WHERE old.principal = $principal AND old.superseded_at IS NULL AND old.state <> 'retired'
MATCH (new:Belief {id: $new_id})
WHERE new.principal = $principal
SET old.valid_to = new.valid_from, old.superseded_at = $now
CREATE (new)-[:SUPERSEDES {reason: $reason, actor: $actor, at: $now}]->(old)
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'belief.superseded', node_id: old.id,
  actor: $actor, at: $now
})-[:ABOUT]->(old)
RETURN seq
