// Re-derivation's second step: every episode of the principal is due for formation.
MATCH (e:Episode)
WHERE e.principal = $principal AND e.consolidated_at IS NOT NULL
REMOVE e.consolidated_at, e.consolidation_policy
RETURN count(e) AS reset
