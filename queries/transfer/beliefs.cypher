// Export: the principal's beliefs, superseded and retired ones too, in seq order (of
// one project: stated there or learned there, or all).
MATCH (b:Belief {principal: $principal})
WHERE $project IS NULL OR b.project = $project OR $project IN b.origins
RETURN b.id AS id, b.seq AS seq, b {.*} AS props
ORDER BY seq, id
