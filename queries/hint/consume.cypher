// Marks hints consumed, with what formation looked at and what came of it ($hints:
// id, episodes, formed). Only a hint still open and not expired is consumed; its open
// key goes, so the subject may queue a new hint from later misses.
UNWIND $hints AS row
MATCH (h:FormationHint {id: row.id})
USING INDEX SEEK h:FormationHint(id)
WHERE h.principal = $principal AND h.state = 'open' AND h.expires_at > $now
SET h.state = 'consumed', h.consumed_at = $now, h.consumed_by = $by,
    h.episodes = row.episodes, h.formed = row.formed
REMOVE h.open_key
RETURN h.id AS id
