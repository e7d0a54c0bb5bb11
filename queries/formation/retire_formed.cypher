// Re-derivation's first step, one page: retires these formed beliefs ($ids), one
// belief.retired event each, with seqs from the clock or from the block reserved
// before the transaction ($base, the seq before it: store/clock.py), as belief/stamp
// draws them. A belief superseded or retired since the page was read is left alone
// (its seq goes unused). Returns how many were retired.
OPTIONAL MATCH (clock:Clock {id: 'memory'})
WHERE $base IS NULL
SET clock.locked = true  // the write lock first, before seq is read (see belief/stamp)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + size($ids)
WITH coalesce($base, clock.seq - size($ids)) AS base
WHERE base IS NOT NULL
UNWIND range(0, size($ids) - 1) AS i
MATCH (b:Belief {id: $ids[i]})
USING INDEX SEEK b:Belief(id)
WHERE b.principal = $principal AND b.superseded_at IS NULL AND b.state <> 'retired'
SET b.retired_from = b.state, b.state = 'retired', b.valid_to = $now, b.retired_at = $now,
    b.retired_reason = $reason
CREATE (:MemoryEvent {
  seq: base + i + 1, principal: $principal, type: 'belief.retired', node_id: b.id,
  actor: $actor, at: $now
})-[:ABOUT]->(b)
RETURN count(b) AS retired
