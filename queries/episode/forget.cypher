// Forgets one episode (a captured session or one of its segments): the node, its edges
// and its text go; the episode.deleted event carries the node's seq (for the views),
// its project, and no text. Each entity no other node mentions then goes too. The
// caller checks that the episode exists first, so no seq is drawn for nothing.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + 1
WITH clock.seq AS seq
MATCH (e:Episode {id: $id})
WHERE e.principal = $principal
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'episode.deleted', node_id: e.id,
  node_seq: e.seq, project: e.project, actor: $actor, at: $now
})
WITH e
CALL (e) {
  MATCH (e)-[mention:MENTIONS]->(entity:Entity)
  DELETE mention
  WITH entity
  WHERE NOT EXISTS { (entity)<-[:MENTIONS]-() }
  DELETE entity
}
CALL (e) {  // its stored vectors go with it
  MATCH (e)-[:EMBEDDED_AS]->(v:Embedding)
  DETACH DELETE v
}
DETACH DELETE e
RETURN count(*) AS forgotten
