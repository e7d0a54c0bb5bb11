// What more support changes, once per belief: corroborations counted, the seq it was
// last cited at (decay restarts there), every supporting project among the origins
// (and LEARNED_IN linked); a provisional belief turns active once two distinct episodes
// support it; a belief that is not local and whose support spans two projects is
// promoted to principal scope in place. One event per change, and seqs are reserved
// for those events only: the activations, then the promotions.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
UNWIND $ids AS id
MATCH (b:Belief {id: id})
USING INDEX SEEK b:Belief(id)
WHERE b.principal = $principal
CALL (b) {
  MATCH (b)-[:DERIVED_FROM]->(source:Episode)
  RETURN count(DISTINCT source) AS episodes, collect(DISTINCT source.project) AS projects
}
WITH clock, b, episodes, projects,
     b.state = 'provisional' AND episodes >= 2 AS activates,
     b.scope = 'project' AND b.portability <> 'local' AND size(projects) >= 2 AS promotes
ORDER BY b.id
WITH clock, collect({
  belief: b, episodes: episodes, projects: projects, activates: activates, promotes: promotes
}) AS rows
WITH clock, rows, [r IN rows WHERE r.activates | r.belief] AS activated,
     [r IN rows WHERE r.promotes | r.belief] AS promoted
SET clock.seq = clock.seq + size(activated) + size(promoted)
WITH clock.seq AS top, rows, activated, promoted
WITH top, top - size(activated) - size(promoted) AS base, rows, activated, promoted
FOREACH (i IN range(0, size(activated) - 1) |
  FOREACH (b IN [activated[i]] |
    CREATE (:MemoryEvent {
      seq: base + i + 1, principal: $principal, type: 'belief.activated', node_id: b.id,
      actor: $actor, at: $now
    })-[:ABOUT]->(b)
  )
)
FOREACH (i IN range(0, size(promoted) - 1) |
  FOREACH (b IN [promoted[i]] |
    CREATE (:MemoryEvent {
      seq: base + size(activated) + i + 1, principal: $principal, type: 'belief.promoted',
      node_id: b.id, actor: $actor, at: $now
    })-[:ABOUT]->(b)
  )
)
WITH top, rows
UNWIND rows AS row
WITH top, row, row.belief AS b
SET b.corroborations = row.episodes,
    b.cited_seq = top,  // fresh support resets read-time decay (design §5.4)
    b.origins = b.origins + [p IN row.projects WHERE NOT p IN b.origins],
    b.state = CASE WHEN row.activates THEN 'active' ELSE b.state END,
    b.scope = CASE WHEN row.promotes THEN 'principal' ELSE b.scope END
// Support observed after the last confirmation ($confirmed: the episode's time)
// confirms it again and clears staleness (expiry, docs/formation.md#expiry); older
// support changes neither.
WITH b, row, coalesce(b.last_confirmed_at < $confirmed, true) AS confirms
SET b.stale_since = CASE WHEN confirms THEN null ELSE b.stale_since END,
    b.last_confirmed_at = CASE WHEN confirms THEN $confirmed ELSE b.last_confirmed_at END
WITH b, row
CALL (b) {
  MATCH (project:Project {principal: $principal})
  WHERE project.name IN b.origins
  MERGE (b)-[:LEARNED_IN]->(project)
}
RETURN b.id AS id, row.activates AS activates, row.promotes AS promotes
