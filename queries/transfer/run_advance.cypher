// Ends a slice of an import: the statements it committed, and its block held for
// another $seconds (the next slice renews it again).
MATCH (run:ImportRun {id: $key})
WHERE run.principal = $principal
SET run.pieces = $pieces
WITH run
MATCH (r:Reservation)  // a few at most: no index
WHERE r.id = run.reservation AND r.principal = $principal
SET r.expires_at = datetime() + duration({seconds: $seconds})
