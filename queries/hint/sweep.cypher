// Deletes up to $limit of the principal's expired hints. A consumed one stays until
// its consumption is older than the miss window ($since), because misses are counted
// after a subject's last consumed hint.
MATCH (h:FormationHint)
WHERE h.principal = $principal AND h.expires_at <= $now
  AND (h.consumed_at IS NULL OR h.consumed_at <= $since)
WITH h
LIMIT $limit
DETACH DELETE h
RETURN count(*) AS deleted
