// Candidate episodes of one search, in one round trip: the arms' hits ($seqs, creation
// seqs) and the graph arm's session adjacency from its seeds ($seeds), all through the
// hard filters: one principal, optionally one project, happened by $as_of. One above
// the sensitivity ceiling ($levels: the levels the call may see) returns its seq alone.
//
// From each seed the graph arm reaches its siblings under the same parent (PART_OF),
// ordered by seq, within $width positions, and the episodes that mention an entity it
// mentions ($entity_hops away). A name is skipped when more than $max_share of the
// principal's episodes (or $max_mentions) mention it; the rest weigh 1 / mentions
// (IDF-like), and each seed keeps the $per_seed rarest-sharing episodes.
// `reached` lists (seed seq, distance); `parent` is the episode's own parent id
// (fusion's session context), `reply` the id of the sibling after an episode whose text
// asks a question (fusion's reply context).
// Planned once per server (replan=skip): planning it takes ~0.2 s, and every node it
// starts from is named by an index hint, so the plan does not depend on statistics; a
// store that grows or gains principals keeps it instead of replanning in the middle of
// a search (a store gaining 1,200 episodes a minute replanned it: searches of 135-190 ms).
CYPHER replan=skip
CALL () {
  UNWIND $seqs AS seq
  MATCH (e:Episode {seq: seq})
  USING INDEX SEEK e:Episode(seq)
  RETURN e, null AS seed, null AS hops
  UNION
  UNWIND $seeds AS seed_seq
  MATCH (seed:Episode {seq: seed_seq})-[:PART_OF]->(parent:Episode)
  USING INDEX SEEK seed:Episode(seq)
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
  UNION
  MATCH (principal:Principal {id: $principal})<-[:BELONGS_TO]-(project:Project)
  USING INDEX SEEK principal:Principal(id)
  WITH sum(COUNT { (project)<-[:IN_PROJECT]-() }) AS episodes
  UNWIND $seeds AS seed_seq
  MATCH (seed:Episode {seq: seed_seq})-[:MENTIONS]->(entity:Entity)
  USING INDEX SEEK seed:Episode(seq)
  WHERE seed.principal = $principal
  WITH seed, entity, COUNT { (entity)<-[:MENTIONS]-() } AS mentions, episodes
  WHERE 1 < mentions AND mentions <= $max_mentions
    AND (mentions <= $min_mentions OR mentions <= $max_share * episodes)
  MATCH (entity)<-[:MENTIONS]-(other:Episode)
  WHERE other.principal = $principal AND other <> seed
  WITH seed, other, sum(1.0 / mentions) AS rarity
  ORDER BY rarity DESC, other.seq
  WITH seed, collect(other)[..$per_seed] AS nearest
  UNWIND nearest AS near
  RETURN near AS e, seed.seq AS seed, $entity_hops AS hops
}
WITH e, collect(CASE WHEN seed IS NULL THEN null ELSE {seed: seed, hops: hops} END) AS reached
WHERE e.principal = $principal
  AND ($project IS NULL OR e.project = $project)
  AND ($as_of IS NULL OR coalesce(e.started_at, e.recorded_at) <= $as_of)
// One record holding every row: one message for the driver to decode, not one each.
// Only what search ranks and renders: a datetime costs the driver ~110 us to decode
// (64 of them 9.1 ms, as strings 2.0), and the unread started_at took half this query.
RETURN collect({
  seq: e.seq,
  episode: CASE WHEN e.sensitivity IN $levels THEN e {  // above the ceiling: seq alone
    .id, .seq, .project, .kind, .title, .text, .outcome,
    parent: [(e)-[:PART_OF]->(parent:Episode) | parent.id][0],
    // Its place among its parent's parts, by seq (fusion's session context).
    position: COUNT {
      MATCH (e)-[:PART_OF]->(:Episode)<-[:PART_OF]-(before:Episode)
      WHERE before.seq < e.seq AND before.principal = $principal
    },
    // A text that asks something: the sibling after it, which holds the answer.
    reply: CASE WHEN e.text CONTAINS '?' THEN COLLECT {
      MATCH (e)-[:PART_OF]->(:Episode)<-[:PART_OF]-(next:Episode)
      WHERE next.seq > e.seq AND next.principal = $principal
      RETURN next.id ORDER BY next.seq LIMIT 1
    }[0] END
  } END,
  reached: reached
}) AS rows
