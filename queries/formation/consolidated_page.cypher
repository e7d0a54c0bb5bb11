// Re-derivation's second step, a page at a time: the principal's episodes already
// consolidated, after seq $after, oldest first (index episode_principal_seq).
MATCH (e:Episode {principal: $principal})
USING INDEX SEEK e:Episode(principal, seq)
WHERE e.seq > $after AND e.consolidated_at IS NOT NULL
RETURN e.id AS id, e.seq AS seq
ORDER BY e.principal, e.seq
LIMIT $limit
