// Creates a batch of beliefs, each with its seq, provenance edges, anchor links, a
// LEARNED_IN link to each project it was learned in (its origins), MENTIONS links to
// the entities its names are (found by graphmem/entities: $names holds each name of
// the batch once, row.mentions the positions of the row's names in it) and its event.
// The clock is locked first in every memory write, so writers queue on it instead of
// deadlocking on each other's later locks. The lock is a write of another property:
// a waiter queued on `clock.seq = clock.seq + k` holds a lock that a transaction which
// already owns the clock needs for its next `+ k` (DeadlockDetected), and
// `clock.seq = clock.seq` writes the value read before the lock (lost updates).
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read
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
CREATE (b:Belief)
SET b = row.props, b.principal = $principal, b.principal_key = $principal_key, b.seq = seq,
    b.recorded_at = $now,
    // valid from now unless the row says otherwise: one $now, not a datetime per row
    // (the driver packs each datetime in Python, ~0.1-0.3 ms apiece)
    b.valid_from = coalesce(row.props.valid_from, $now)
WITH b, row, seq, principal, entities
CALL (b, principal) {
  UNWIND b.origins AS name
  MERGE (project:Project {principal: $principal, name: name})
    ON CREATE SET project.created_at = $now
  MERGE (project)-[:BELONGS_TO]->(principal)
  MERGE (b)-[:LEARNED_IN]->(project)
}
CALL (b, row) {
  UNWIND row.evidence AS evidence
  MATCH (e:Episode {id: evidence.episode_id})
  WHERE e.principal = $principal
  CREATE (b)-[:DERIVED_FROM {role: evidence.role}]->(e)
}
CALL (b) {
  // By key (the index on key alone): left to itself the planner seeks by principal
  // and reads every symbol the principal has indexed, for every belief written.
  MATCH (s:Symbol {key: b.anchor_key})
  USING INDEX s:Symbol(key)
  WHERE s.principal = $principal
  MERGE (b)-[:ANCHORED_TO]->(s)
}
CALL (b, row, entities) {
  UNWIND row.mentions AS at
  WITH b, entities[at] AS entity
  CREATE (b)-[:MENTIONS]->(entity)
}
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'belief.created', node_id: b.id,
  actor: b.authority, at: $now
})-[:ABOUT]->(b)
RETURN count(b) AS created  // one record: the driver decodes each record in Python
