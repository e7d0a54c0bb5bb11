// Keeps a window of the newest rejected candidates per principal (enough to see a bad
// threshold and to affirm held-back untrusted content); older ones are dropped.
MATCH (e:MemoryEvent {principal: $principal, type: 'candidate.rejected'})
WITH e
ORDER BY e.seq DESC
SKIP $window
DETACH DELETE e
RETURN count(*) AS pruned
