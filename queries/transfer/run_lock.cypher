// Starts a slice of an import: locks its run first (so two processes never write the
// same slice), then reads the slices committed and whether its block is still held
// with $margin seconds to spare.
MATCH (run:ImportRun {id: $key})
WHERE run.principal = $principal
SET run.locked = true
REMOVE run.locked
WITH run
OPTIONAL MATCH (r:Reservation)  // a few at most: no index
WHERE r.id = run.reservation AND r.principal = $principal
  AND r.expires_at >= datetime() + duration({seconds: $margin})
RETURN run.pieces AS pieces, r IS NOT NULL AS held
