// Claims a reserved block for the write in progress: deletes its :Reservation (the
// readers' horizon moves past the block when this transaction commits) and returns
// the seq before the block. No row when it is gone or has under $margin seconds left.
MATCH (r:Reservation {id: $id})
WHERE r.principal = $principal AND r.expires_at >= datetime() + duration({seconds: $margin})
WITH r, r.first - 1 AS base
DELETE r
RETURN base
