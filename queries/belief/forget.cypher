// Forgets one belief (rule 7): the node and its edges go, and so do every logged
// candidate with the same content, every episode item that states it ($forms: its
// normal forms, "subject: statement" when it has a subject) and every correction of
// that content. A correction that rewrote something *into* it becomes "not true" (the
// old content is still wrong; the new one is forgotten). Only a Tombstone with the
// content digest stays, so formation never re-forms it. Free episode text (title,
// text) is left as written. Its MENTIONS go, and so does each entity no other node
// mentions then. The deletion event carries the node's seq
// (for the FAISS views), its project and the digest, and no text.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + 1
WITH clock.seq AS seq
MATCH (b:Belief {id: $id})
WHERE b.principal = $principal
CREATE (:Tombstone {
  id: $tombstone_id, principal: $principal, statement_sha256: $digest, at: $now
})
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'belief.deleted', node_id: b.id,
  node_seq: b.seq, project: b.project, statement_sha256: $digest, actor: $actor, at: $now
})
WITH b
CALL (b) {
  MATCH (logged:MemoryEvent {principal: $principal, type: 'candidate.rejected'})
  WHERE logged.statement_sha256 = $digest
  DETACH DELETE logged
}
CALL (b) {
  MATCH (e:Episode {principal: $principal})
  WITH e, [part IN ['observations', 'inferences', 'decisions', 'failed_attempts'] |
           [item IN coalesce(e[part], [])
            WHERE reduce(text = '', word IN [w IN split(
                    replace(replace(replace(toLower(item), '\n', ' '), '\t', ' '), '\r', ' '),
                    ' ') WHERE w <> ''] |
                  text + CASE WHEN text = '' THEN '' ELSE ' ' END + word) IN $forms]] AS hits
  WHERE any(found IN hits WHERE size(found) > 0)
  SET e.observations = [x IN e.observations WHERE NOT x IN hits[0]],
      e.inferences = [x IN e.inferences WHERE NOT x IN hits[1]],
      e.decisions = [x IN e.decisions WHERE NOT x IN hits[2]],
      e.failed_attempts = [x IN e.failed_attempts WHERE NOT x IN hits[3]]
}
CALL (b) {
  MATCH (r:Rejection {principal: $principal})
  WHERE r.statement_sha256 = $digest
  DETACH DELETE r
}
CALL (b) {
  MATCH (r:Rejection {principal: $principal})
  WHERE r.replacement_sha256 = $digest
  SET r.kind = 'not_true', r.replacement = null, r.replacement_sha256 = null
}
CALL (b) {
  MATCH (b)-[mention:MENTIONS]->(entity:Entity)
  DELETE mention
  WITH entity
  WHERE NOT EXISTS { (entity)<-[:MENTIONS]-() }
  DELETE entity
}
CALL (b) {  // its stored vectors go with it
  MATCH (b)-[:EMBEDDED_AS]->(v:Embedding)
  DETACH DELETE v
}
DETACH DELETE b
RETURN count(*) AS forgotten
