// Another episode supports live beliefs (design §6): one DERIVED_FROM and one
// belief.reinforced event per (belief, episode) row, none when that episode already
// supports the belief (seqs are reserved only for the rows written). A belief no longer
// live is skipped (the caller counts the rows and decides again). Rows are distinct.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
UNWIND $rows AS row
MATCH (b:Belief {id: row.belief_id})
USING INDEX SEEK b:Belief(id)
WHERE b.principal = $principal AND b.superseded_at IS NULL AND b.state <> 'retired'
MATCH (e:Episode {id: row.episode_id})
USING INDEX SEEK e:Episode(id)
WHERE e.principal = $principal
WITH clock, row, b, e, EXISTS { (b)-[:DERIVED_FROM]->(e) } AS known
WITH clock, collect({row: row, belief: b, episode: e, known: known}) AS found
WITH clock, found, [f IN found WHERE NOT f.known] AS fresh
SET clock.seq = clock.seq + size(fresh)
WITH clock.seq - size(fresh) AS base, found, fresh
FOREACH (i IN range(0, size(fresh) - 1) |
  FOREACH (b IN [fresh[i].belief] |
    FOREACH (e IN [fresh[i].episode] |
      CREATE (b)-[:DERIVED_FROM {role: fresh[i].row.role}]->(e)
      CREATE (:MemoryEvent {
        seq: base + i + 1, principal: $principal, type: 'belief.reinforced', node_id: b.id,
        episode_id: e.id, actor: $actor, at: $now
      })-[:ABOUT]->(b)
    )
  )
)
WITH found
UNWIND found AS f
RETURN f.belief.id AS id
