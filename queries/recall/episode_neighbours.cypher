// Graph arm over episodes, session adjacency: for each seed, its siblings under the
// same parent (PART_OF), ordered by seq, within $width positions, with the distance.
UNWIND $seeds AS seed_id
MATCH (seed:Episode {id: seed_id})-[:PART_OF]->(parent:Episode)
WHERE seed.principal = $principal
MATCH (parent)<-[:PART_OF]-(sibling:Episode)
WHERE sibling.principal = $principal
WITH seed_id, seed, sibling
ORDER BY sibling.seq
WITH seed_id, seed, collect(sibling) AS siblings
WITH seed_id, siblings, [i IN range(0, size(siblings) - 1) WHERE siblings[i] = seed][0] AS at
UNWIND range(at - $width, at + $width) AS position
WITH seed_id, siblings, at, position
WHERE position >= 0 AND position < size(siblings) AND position <> at
RETURN seed_id, siblings[position].id AS id, abs(position - at) AS hops
