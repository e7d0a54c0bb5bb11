// Marks an episode consolidated under one policy; returns nothing if it already was
// (a concurrent or repeated run), which aborts the caller's transaction.
MATCH (clock:Clock {id: 'memory'})
SET clock.seq = clock.seq  // the clock first, as in every memory write
WITH clock
MATCH (e:Episode {id: $episode_id})
WHERE e.principal = $principal AND e.consolidated_at IS NULL
SET e.consolidated_at = $now, e.consolidation_policy = $policy
RETURN e.id AS id
