// The principal's open hints that have not expired, oldest first: what formation
// consumes next.
MATCH (h:FormationHint)
WHERE h.principal = $principal AND h.state = 'open' AND h.expires_at > $now
RETURN h {.*} AS hint
ORDER BY h.created_at, h.id
LIMIT $limit
