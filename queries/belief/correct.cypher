// Records a user's correction of one belief as a durable Rejection (rule 6): it keeps
// the belief's content (subject, statement, type) because later formation runs match
// by content, never by id; REJECTS is an audit link only. One event.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + 1
WITH clock.seq AS seq
MATCH (b:Belief {id: $id})
WHERE b.principal = $principal
CREATE (r:Rejection {
  id: $rejection_id, principal: $principal, kind: $kind, subject: b.subject,
  statement: b.statement, statement_sha256: $digest, type: b.type, project: $project,
  replacement: $replacement, replacement_sha256: $replacement_digest, actor: $actor,
  at: $now
})-[:REJECTS]->(b)
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'belief.corrected', node_id: b.id, kind: $kind,
  actor: $actor, at: $now
})-[:ABOUT]->(b)
RETURN r.id AS id
