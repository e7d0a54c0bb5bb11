// Gives back a reservation its write did not claim (the write failed, or wrote
// nothing); nothing to do when the write claimed it.
MATCH (r:Reservation {id: $id})
WHERE r.principal = $principal
DELETE r
