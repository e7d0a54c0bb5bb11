// An import of this file that has not finished (store/transfer.py): its reserved block
// (base, count), the slices committed, and whether the block is still held with
// $margin seconds to spare. No row when there is none.
MATCH (run:ImportRun {id: $key})
WHERE run.principal = $principal
OPTIONAL MATCH (r:Reservation)  // a few at most: no index
WHERE r.id = run.reservation AND r.principal = $principal
  AND r.expires_at >= datetime() + duration({seconds: $margin})
RETURN run.reservation AS reservation, run.base AS base, run.count AS count,
       run.pieces AS pieces, r IS NOT NULL AS held
