// Candidate episodes of one search, in one round trip: the arms' hits ($seqs, creation
// seqs) and the graph arm's session adjacency from its seeds ($seeds), all through the
// hard filters: one principal, optionally one project, happened by $as_of.
//
// From each seed the graph arm reaches its siblings under the same parent (PART_OF),
// ordered by seq, within $width positions; `reached` lists (seed seq, distance).
CALL () {
  UNWIND $seqs AS seq
  MATCH (e:Episode {seq: seq})
  RETURN e, null AS seed, null AS hops
  UNION
  UNWIND $seeds AS seed_seq
  MATCH (seed:Episode {seq: seed_seq})-[:PART_OF]->(parent:Episode)
  WHERE seed.principal = $principal
  MATCH (parent)<-[:PART_OF]-(sibling:Episode)
  WHERE sibling.principal = $principal
  WITH seed, sibling
  ORDER BY sibling.seq
  WITH seed, collect(sibling) AS siblings
  WITH seed, siblings, [i IN range(0, size(siblings) - 1) WHERE siblings[i] = seed][0] AS at
  UNWIND range(at - $width, at + $width) AS position
  WITH seed, siblings, at, position
  WHERE position >= 0 AND position < size(siblings) AND position <> at
  RETURN siblings[position] AS e, seed.seq AS seed, abs(position - at) AS hops
}
WITH e, collect(CASE WHEN seed IS NULL THEN null ELSE {seed: seed, hops: hops} END) AS reached
WHERE e.principal = $principal
  AND ($project IS NULL OR e.project = $project)
  AND ($as_of IS NULL OR coalesce(e.started_at, e.recorded_at) <= $as_of)
RETURN e {
  .id, .seq, .project, .kind, .title, .text, .outcome, .trust, .started_at
} AS episode,
  reached
