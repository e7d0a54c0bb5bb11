// The principal's formation hints that have not expired: the open ones, and the
// consumed ones too when $consumed; open first, then the most missed, the latest.
MATCH (h:FormationHint)
WHERE h.principal = $principal AND h.expires_at > $now
  AND (h.state = 'open' OR ($consumed AND h.state = 'consumed'))
RETURN h {.*} AS hint
ORDER BY CASE h.state WHEN 'open' THEN 0 ELSE 1 END, h.misses DESC, h.last_at DESC, h.id
LIMIT $limit
