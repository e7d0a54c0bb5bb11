// Takes the write lock on one belief, then reads it: concurrent supersessions of the
// same belief are serialised here, and the loser sees the winner's change.
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true  // the write lock first, before seq is read (see belief/create)
REMOVE clock.locked
WITH clock
MATCH (b:Belief {id: $id})
WHERE b.principal = $principal
SET b.lock = true
REMOVE b.lock
WITH b
OPTIONAL MATCH (newer:Belief)-[:SUPERSEDES]->(b)
RETURN b {.*} AS belief, newer.id AS superseded_by
