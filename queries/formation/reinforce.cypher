// Reinforces live beliefs with another episode's support (design §6): one more
// DERIVED_FROM (none, and no event, when that episode already supports it), and the
// episode's project among the origins. A provisional belief turns active once two
// distinct episodes support it; a belief whose support spans two projects and that is
// not local is promoted to principal scope in place. One event per change (three seqs
// drawn per row; unused ones are skipped).
MATCH (clock:Clock {id: 'memory'})
SET clock.seq = clock.seq + 3 * size($rows)
WITH clock.seq - 3 * size($rows) AS base
UNWIND range(0, size($rows) - 1) AS i
WITH base + 3 * i AS at, $rows[i] AS row
MATCH (b:Belief {id: row.belief_id})
WHERE b.principal = $principal
MATCH (e:Episode {id: row.episode_id})
WHERE e.principal = $principal
WITH at, row, b, e, EXISTS { (b)-[:DERIVED_FROM]->(e) } AS known
FOREACH (_ IN CASE WHEN known THEN [] ELSE [1] END |
  CREATE (b)-[:DERIVED_FROM {role: row.role}]->(e)
)
WITH at, row, b, known
CALL (b) {
  MATCH (b)-[:DERIVED_FROM]->(source:Episode)
  RETURN count(DISTINCT source) AS episodes, collect(DISTINCT source.project) AS projects
}
WITH at, row, b, known, episodes, projects,
     b.state = 'provisional' AND episodes >= 2 AS activates,
     b.scope = 'project' AND b.portability <> 'local' AND size(projects) >= 2 AS promotes
SET b.corroborations = episodes,
    b.origins = b.origins + [p IN projects WHERE NOT p IN b.origins],
    b.state = CASE WHEN activates THEN 'active' ELSE b.state END,
    b.scope = CASE WHEN promotes THEN 'principal' ELSE b.scope END
FOREACH (_ IN CASE WHEN known THEN [] ELSE [1] END |
  CREATE (:MemoryEvent {
    seq: at + 1, principal: $principal, type: 'belief.reinforced', node_id: b.id,
    episode_id: row.episode_id, actor: $actor, at: $now
  })-[:ABOUT]->(b)
)
FOREACH (_ IN CASE WHEN activates THEN [1] ELSE [] END |
  CREATE (:MemoryEvent {
    seq: at + 2, principal: $principal, type: 'belief.activated', node_id: b.id,
    actor: $actor, at: $now
  })-[:ABOUT]->(b)
)
FOREACH (_ IN CASE WHEN promotes THEN [1] ELSE [] END |
  CREATE (:MemoryEvent {
    seq: at + 3, principal: $principal, type: 'belief.promoted', node_id: b.id,
    actor: $actor, at: $now
  })-[:ABOUT]->(b)
)
RETURN b.id AS id, activates, promotes
