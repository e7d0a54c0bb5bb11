// Export: the principal's corrections (:Rejection), each with the belief it REJECTS
// while that exists.
MATCH (r:Rejection {principal: $principal})
RETURN r.id AS id, r {.*} AS props,
       head([(r)-[:REJECTS]->(b:Belief) WHERE b.principal = $principal | b.id]) AS belief
ORDER BY id
