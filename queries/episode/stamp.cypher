// Gives the episodes just created in this transaction ($ids, in order) their seqs from
// the clock (or the reserved block before $base) and one episode.created event each; last in the write, like belief/stamp
// (which says why the lock is taken the way it is).
OPTIONAL MATCH (clock:Clock {id: 'memory'})
WHERE $base IS NULL  // a reserved write brings its block's $base (store/clock.py)
SET clock.locked = true  // the write lock first, before seq is read (a no-op on null)
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + size($ids)
WITH coalesce($base, clock.seq - size($ids)) AS base
WHERE base IS NOT NULL  // neither a block nor a clock: created stays 0
UNWIND range(0, size($ids) - 1) AS i
MATCH (e:Episode {id: $ids[i]})
USING INDEX SEEK e:Episode(id)
WHERE e.principal = $principal
SET e.seq = base + i + 1
CREATE (:MemoryEvent {
  seq: base + i + 1, principal: $principal, type: 'episode.created', node_id: e.id,
  actor: 'writer', at: $now
})-[:ABOUT]->(e)
RETURN count(e) AS created  // one record: the driver decodes each record in Python
