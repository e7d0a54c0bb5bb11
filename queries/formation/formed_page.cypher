// Re-derivation's first step, a page at a time: the live beliefs formation made (they
// carry a policy_version) after seq $after, oldest first, in the order of index
// belief_principal_seq (so a page stops after $limit of them).
MATCH (b:Belief {principal: $principal})
USING INDEX SEEK b:Belief(principal, seq)
WHERE b.seq > $after
  AND b.policy_version IS NOT NULL AND b.superseded_at IS NULL AND b.state <> 'retired'
RETURN b.id AS id, b.seq AS seq
ORDER BY b.principal, b.seq
LIMIT $limit
