// Records unresolved contradictions (rule 3): the newer belief CONFLICTS_WITH the slot
// holder, both are flagged, one event each pair. A holder no longer live is skipped
// (the caller counts the rows and decides again).
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + size($pairs)
WITH clock.seq - size($pairs) AS base
UNWIND range(0, size($pairs) - 1) AS i
WITH base + i + 1 AS seq, $pairs[i] AS pair
MATCH (new:Belief {id: pair.new_id})
USING INDEX SEEK new:Belief(id)
WHERE new.principal = $principal
MATCH (old:Belief {id: pair.old_id})
USING INDEX SEEK old:Belief(id)
WHERE old.principal = $principal AND old.superseded_at IS NULL AND old.state <> 'retired'
MERGE (new)-[:CONFLICTS_WITH]->(old)
SET new.flagged = true, old.flagged = true
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'belief.conflicted', node_id: new.id,
  other_id: old.id, actor: $actor, at: $now
})-[:ABOUT]->(new)
RETURN new.id AS id
