// Export: the principal's change log in seq order, each event with the belief or
// episode it is ABOUT while that exists.
MATCH (e:MemoryEvent {principal: $principal})
OPTIONAL MATCH (e)-[:ABOUT]->(n)
WHERE n.principal = $principal
RETURN e.seq AS seq, e {.*} AS props, n.id AS about,
       CASE WHEN n:Belief THEN 'belief' WHEN n:Episode THEN 'episode' END AS about_kind
ORDER BY seq
