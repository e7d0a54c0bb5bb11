// Takes the write lock on one belief, then reads it: concurrent supersessions of the
// same belief are serialised here, and the loser sees the winner's change.
MATCH (clock:Clock {id: 'memory'})
SET clock.seq = clock.seq  // the clock first, as in every memory write
WITH clock
MATCH (b:Belief {id: $id})
WHERE b.principal = $principal
SET b.lock = true
REMOVE b.lock
WITH b
OPTIONAL MATCH (newer:Belief)-[:SUPERSEDES]->(b)
RETURN b {.*} AS belief, newer.id AS superseded_by
