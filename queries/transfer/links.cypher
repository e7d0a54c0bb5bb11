// Export: the links between the principal's beliefs and episodes: provenance
// (DERIVED_FROM, with its role), supersession (SUPERSEDES: reason, actor, at) and
// unresolved conflicts (CONFLICTS_WITH).
MATCH (a:Belief {principal: $principal})-[r:DERIVED_FROM]->(b:Episode)
WHERE b.principal = $principal
RETURN 'derived_from' AS kind, a.id AS source, b.id AS target, r {.*} AS props
UNION ALL
MATCH (a:Belief {principal: $principal})-[r:SUPERSEDES]->(b:Belief)
WHERE b.principal = $principal
RETURN 'supersedes' AS kind, a.id AS source, b.id AS target, r {.*} AS props
UNION ALL
MATCH (a:Belief {principal: $principal})-[r:CONFLICTS_WITH]->(b:Belief)
WHERE b.principal = $principal
RETURN 'conflicts_with' AS kind, a.id AS source, b.id AS target, r {.*} AS props
