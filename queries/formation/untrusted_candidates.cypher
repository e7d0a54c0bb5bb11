// Candidates the trust gate held back (newest first): evidence a trusted episode may
// affirm (rule 5).
MATCH (e:MemoryEvent)
WHERE e.principal = $principal AND e.type = 'candidate.rejected' AND e.gate = 'trust'
RETURN e.statement AS statement, e.subject AS subject, e.belief_type AS belief_type,
       e.episode_id AS episode_id, e.role AS role
ORDER BY e.seq DESC
LIMIT $limit
