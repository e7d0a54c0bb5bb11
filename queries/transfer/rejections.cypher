// Export: the principal's corrections (:Rejection), each with the belief it REJECTS
// while that exists.
MATCH (r:Rejection {principal: $principal})
RETURN r.id AS id, r {.*} AS props,
       head([b IN [(r)-[:REJECTS]->(b) | b] WHERE b:Belief AND b.principal = $principal | b.id])
         AS belief
ORDER BY id
