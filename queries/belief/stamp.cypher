// Gives the beliefs just created in this transaction ($ids, in order) their seqs from
// the clock, or from the block reserved before the transaction ($base, the seq before
// it), and one belief.created event each. It runs last in the write, so the
// clock is held only for this statement and the commit: writers queue on it, and seqs
// become visible in the order they were drawn (views catch up by seq). The lock is a
// write of another property: a waiter queued on `clock.seq = clock.seq + k` holds a
// lock that a transaction which already owns the clock needs for its next `+ k`
// (DeadlockDetected), and `clock.seq = clock.seq` writes the value read before the
// lock (lost updates).
OPTIONAL MATCH (clock:Clock {id: 'memory'})
WHERE $base IS NULL  // a reserved write brings its block's $base (store/clock.py)
SET clock.locked = true  // the write lock first, before seq is read (a no-op on null)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + size($ids)
WITH coalesce($base, clock.seq - size($ids)) AS base
WHERE base IS NOT NULL  // neither a block nor a clock: created stays 0
UNWIND range(0, size($ids) - 1) AS i
MATCH (b:Belief {id: $ids[i]})
USING INDEX SEEK b:Belief(id)
WHERE b.principal = $principal
SET b.seq = base + i + 1
CREATE (:MemoryEvent {
  seq: base + i + 1, principal: $principal, type: 'belief.created', node_id: b.id,
  actor: b.authority, at: $now
})-[:ABOUT]->(b)
RETURN count(b) AS created  // one record: the driver decodes each record in Python
