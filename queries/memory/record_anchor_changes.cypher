// Records the beliefs whose anchor state one index run of $project changed: one event
// each, with the state before and after (the beliefs themselves are not touched).
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + size($rows)
WITH clock.seq - size($rows) AS base
UNWIND range(0, size($rows) - 1) AS i
WITH base + i + 1 AS seq, $rows[i] AS row
MATCH (b:Belief {id: row.belief_id})
USING INDEX SEEK b:Belief(id)
WHERE b.principal = $principal
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'anchor.changed', node_id: b.id,
  project: $project, from_state: row.before, to_state: row.after, actor: $actor, at: $now
})-[:ABOUT]->(b)
RETURN count(*) AS recorded
