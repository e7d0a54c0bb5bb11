// Graph arm over beliefs: from each seed, beliefs anchored to the same symbol (1 hop)
// or to a symbol it CONTAINS or is contained by (2), sharing its subject (1), or
// derived from one of its episodes (2); the nearest $per_seed per seed, newest first.
UNWIND $seeds AS seed_id
MATCH (seed:Belief {id: seed_id})
WHERE seed.principal = $principal
CALL (seed) {
  MATCH (seed)-[:ANCHORED_TO]->(:Symbol)<-[:ANCHORED_TO]-(other:Belief)
  RETURN other, 1 AS hops
  UNION
  MATCH (seed)-[:ANCHORED_TO]->(:Symbol)-[:CONTAINS]-(:Symbol)<-[:ANCHORED_TO]-(other:Belief)
  RETURN other, 2 AS hops
  UNION
  MATCH (other:Belief)
  WHERE seed.subject IS NOT NULL AND other.principal = seed.principal
    AND other.subject = seed.subject
  RETURN other, 1 AS hops
  UNION
  MATCH (seed)-[:DERIVED_FROM]->(:Episode)<-[:DERIVED_FROM]-(other:Belief)
  RETURN other, 2 AS hops
}
WITH seed_id, other, min(hops) AS hops
WHERE other.principal = $principal AND other.id <> seed_id
WITH seed_id, other, hops
ORDER BY hops, other.seq DESC
WITH seed_id, collect({id: other.id, hops: hops})[..$per_seed] AS nearest
UNWIND nearest AS neighbour
RETURN seed_id, neighbour.id AS id, neighbour.hops AS hops
