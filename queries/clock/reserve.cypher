// Reserves $count seqs for one write of $principal, in a short transaction of its own
// (store/clock.py): the clock is locked as a stamp locks it (see belief/stamp), moved
// past the block, and released at once; a :Reservation holds the block until the
// write's stamp claims it. The principal's expired reservations go first.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true
REMOVE clock.locked
WITH clock
SET clock.seq = clock.seq + $count
WITH clock.seq - $count AS base
CALL () {
  MATCH (expired:Reservation)
  WHERE expired.principal = $principal AND expired.expires_at < datetime()
  DELETE expired
}
CREATE (:Reservation {
  id: $id, principal: $principal, first: base + 1, count: $count,
  expires_at: datetime() + duration({seconds: $seconds})
})
RETURN base
