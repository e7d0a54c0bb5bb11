// Forgets one belief (rule 7): the node and its edges go, and so does every logged
// candidate with the same statement; only a Tombstone with the statement's digest
// stays, so formation never re-forms it. The deletion event carries the node's seq
// (for the FAISS views) and no text.
MATCH (clock:Clock {id: 'memory'})
SET clock.seq = clock.seq + 1
WITH clock.seq AS seq
MATCH (b:Belief {id: $id})
WHERE b.principal = $principal
CREATE (:Tombstone {
  id: $tombstone_id, principal: $principal, statement_sha256: $digest, at: $now
})
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'belief.deleted', node_id: b.id,
  node_seq: b.seq, actor: $actor, at: $now
})
WITH b
CALL (b) {
  MATCH (logged:MemoryEvent {principal: $principal})
  WHERE logged.type = 'candidate.rejected' AND logged.statement_sha256 = $digest
  DETACH DELETE logged
}
DETACH DELETE b
RETURN count(*) AS forgotten
