// Re-derivation's second step, one page: these episodes ($ids) are due for formation
// again.
UNWIND $ids AS id
MATCH (e:Episode {id: id})
USING INDEX SEEK e:Episode(id)
WHERE e.principal = $principal
REMOVE e.consolidated_at, e.consolidation_policy
RETURN count(e) AS marked
