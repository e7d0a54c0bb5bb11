// The candidates a gate held back, kept in the event log so a bad threshold is visible
// (`graphmem events`) and the trust gate's evidence can be affirmed later.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + size($rows)
WITH clock.seq - size($rows) AS base
UNWIND range(0, size($rows) - 1) AS i
WITH base + i + 1 AS seq, $rows[i] AS row
CREATE (:MemoryEvent {
  seq: seq, principal: $principal, type: 'candidate.rejected', gate: row.gate,
  statement: row.statement, subject: row.subject, belief_type: row.belief_type,
  statement_sha256: row.digest, role: row.role,
  episode_id: $episode_id, similar_to: row.similar_to, similarity: row.similarity,
  actor: $actor, at: $now
})
RETURN count(*) AS logged
