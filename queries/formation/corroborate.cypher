// What more support changes, once per belief: corroborations counted, the generation
// it was last cited at (decay restarts there), every supporting project among the
// origins (and LEARNED_IN linked); a provisional belief turns active once two distinct
// episodes support it; a belief that is not local and whose support spans two projects
// is promoted to principal scope in place. One event per change (two seqs per belief;
// unused ones are skipped).
MATCH (clock:Clock {id: 'memory'})
SET clock.seq = clock.seq + 2 * size($ids)
WITH clock.seq - 2 * size($ids) AS base
UNWIND range(0, size($ids) - 1) AS i
WITH base + 2 * i AS at, $ids[i] AS id
MATCH (b:Belief {id: id})
WHERE b.principal = $principal
CALL (b) {
  MATCH (b)-[:DERIVED_FROM]->(source:Episode)
  RETURN count(DISTINCT source) AS episodes, collect(DISTINCT source.project) AS projects
}
WITH at, b, episodes, projects,
     b.state = 'provisional' AND episodes >= 2 AS activates,
     b.scope = 'project' AND b.portability <> 'local' AND size(projects) >= 2 AS promotes
SET b.corroborations = episodes,
    b.cited_seq = at + 2,  // fresh support resets read-time decay (design §5.4)
    b.origins = b.origins + [p IN projects WHERE NOT p IN b.origins],
    b.state = CASE WHEN activates THEN 'active' ELSE b.state END,
    b.scope = CASE WHEN promotes THEN 'principal' ELSE b.scope END
WITH at, b, activates, promotes
CALL (b) {
  MATCH (project:Project {principal: $principal})
  WHERE project.name IN b.origins
  MERGE (b)-[:LEARNED_IN]->(project)
}
FOREACH (_ IN CASE WHEN activates THEN [1] ELSE [] END |
  CREATE (:MemoryEvent {
    seq: at + 1, principal: $principal, type: 'belief.activated', node_id: b.id,
    actor: $actor, at: $now
  })-[:ABOUT]->(b)
)
FOREACH (_ IN CASE WHEN promotes THEN [1] ELSE [] END |
  CREATE (:MemoryEvent {
    seq: at + 2, principal: $principal, type: 'belief.promoted', node_id: b.id,
    actor: $actor, at: $now
  })-[:ABOUT]->(b)
)
RETURN b.id AS id, activates, promotes
