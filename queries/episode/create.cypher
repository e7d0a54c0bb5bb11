// Creates a batch of episodes, each with its seq, project (belonging to its principal)
// and parent links, TOUCHED links
// to the symbols its paths name (a file path: all its symbols; a key: that symbol),
// MENTIONS links to the entities its names are (found by graphmem/entities: $names
// holds each name of the batch once, row.mentions the positions of the row's names in
// it) and its event.
// The clock is locked first in every memory write, so writers queue on it instead of
// deadlocking on each other's later locks.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + size($rows)
WITH clock.seq - size($rows) AS base
MERGE (principal:Principal {id: $principal})
  ON CREATE SET principal.created_at = $now
WITH base, principal
CALL () {  // each name of the batch once ($names), before the rows link to them
  UNWIND $names AS named
  MERGE (entity:Entity {principal: $principal, name: named.name})
    ON CREATE SET entity.kind = named.kind
  RETURN collect(entity) AS entities
}
UNWIND range(0, size($rows) - 1) AS i
WITH base + i + 1 AS seq, $rows[i] AS row, principal, entities
MERGE (project:Project {principal: $principal, name: row.props.project})
  ON CREATE SET project.created_at = $now
MERGE (project)-[:BELONGS_TO]->(principal)
CREATE (e:Episode)
SET e = row.props, e.principal = $principal, e.principal_key = $principal_key, e.seq = seq,
    e.recorded_at = $now
CREATE (e)-[:IN_PROJECT]->(project)
WITH e, row, seq, entities
CALL (e, row) {
  MATCH (parent:Episode {id: row.parent})
  WHERE parent.principal = $principal
  CREATE (e)-[:PART_OF]->(parent)
}
CALL (e) {
  UNWIND e.paths AS path
  CALL (e, path) {
    MATCH (s:Symbol {principal: $principal, project: e.project, path: path})
    RETURN s
    UNION
    MATCH (s:Symbol {principal: $principal, project: e.project, key: path})
    RETURN s
  }
  MERGE (e)-[:TOUCHED]->(s)
}
CALL (e, row, entities) {
  UNWIND row.mentions AS at
  WITH e, entities[at] AS entity
  CREATE (e)-[:MENTIONS]->(entity)
}
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'episode.created', node_id: e.id,
  actor: $actor, at: $now
})-[:ABOUT]->(e)
RETURN count(e) AS created  // one record: the driver decodes each record in Python
