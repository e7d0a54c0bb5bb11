// Another episode supports live beliefs (design §6): one DERIVED_FROM and one
// belief.reinforced event per (belief, episode) row, none when that episode already
// supports the belief. A belief no longer live is skipped (the caller counts the rows
// and decides again).
MATCH (clock:Clock {id: 'memory'})
SET clock.seq = clock.seq + size($rows)
WITH clock.seq - size($rows) AS base
UNWIND range(0, size($rows) - 1) AS i
WITH base + i + 1 AS seq, $rows[i] AS row
MATCH (b:Belief {id: row.belief_id})
WHERE b.principal = $principal AND b.superseded_at IS NULL AND b.state <> 'retired'
MATCH (e:Episode {id: row.episode_id})
WHERE e.principal = $principal
WITH seq, row, b, e, EXISTS { (b)-[:DERIVED_FROM]->(e) } AS known
FOREACH (_ IN CASE WHEN known THEN [] ELSE [1] END |
  CREATE (b)-[:DERIVED_FROM {role: row.role}]->(e)
  CREATE (:MemoryEvent {
    seq: seq, principal: $principal, type: 'belief.reinforced', node_id: b.id,
    episode_id: e.id, actor: $actor, at: $now
  })-[:ABOUT]->(b)
)
RETURN b.id AS id
