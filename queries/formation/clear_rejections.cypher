// Re-derivation's second step: up to $limit of the rejected-candidate log's events go
// (the run logs them anew).
MATCH (logged:MemoryEvent {principal: $principal, type: 'candidate.rejected'})
WITH logged LIMIT $limit
DETACH DELETE logged
RETURN count(*) AS cleared
