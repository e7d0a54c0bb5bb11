// The whole supersession chain through one belief, oldest first, with each link's reason.
MATCH (b:Belief {id: $id})
WHERE b.principal = $principal
CALL (b) {
  MATCH (b)-[:SUPERSEDES*0..]->(x:Belief)
  RETURN x
  UNION
  MATCH (x:Belief)-[:SUPERSEDES*1..]->(b)
  RETURN x
}
WITH x
WHERE x.principal = $principal
OPTIONAL MATCH (:Belief)-[link:SUPERSEDES]->(x)
RETURN x.id AS id, link.reason AS reason
ORDER BY x.seq, x.id
