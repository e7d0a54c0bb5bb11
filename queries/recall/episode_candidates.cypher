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
  MATCH (seed:Episode {seq: seed_seq})
  USING INDEX SEEK seed:Episode(seq)
  WHERE seed.principal = $principal
  // Each walk goes out from the seed, one pattern comprehension a step, and tests what
  // it reached after: a MATCH naming the far node's label may be planned from the
  // principal's index instead, once per seed (526k db hits for 17 episodes).
  UNWIND [parent IN [(seed)-[:PART_OF]->(parent) | parent] WHERE parent:Episode] AS parent
  UNWIND [sibling IN [(parent)<-[:PART_OF]-(sibling) | sibling]
          WHERE sibling:Episode AND sibling.principal = $principal] AS sibling
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
  MATCH (seed:Episode {seq: seed_seq})
  USING INDEX SEEK seed:Episode(seq)
  WHERE seed.principal = $principal
  UNWIND [entity IN [(seed)-[:MENTIONS]->(entity) | entity] WHERE entity:Entity] AS entity
  WITH seed, entity, COUNT { (entity)<-[:MENTIONS]-() } AS mentions, episodes
  WHERE 1 < mentions AND mentions <= $max_mentions
    AND (mentions <= $min_mentions OR mentions <= $max_share * episodes)
  UNWIND [other IN [(entity)<-[:MENTIONS]-(other) | other]
          WHERE other:Episode AND other.principal = $principal AND other <> seed] AS other
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
// The other parts of its parent (only an episode is ever a parent): its place among
// them and, for a question, the reply.
WITH e, reached, [sibling IN [(e)-[:PART_OF]->(parent)<-[:PART_OF]-(sibling) | sibling]
                  WHERE sibling:Episode AND sibling.principal = $principal] AS siblings
// One record holding every row: one message for the driver to decode, not one each.
// Only what search ranks and renders: a datetime costs the driver ~110 us to decode
// (64 of them 9.1 ms, as strings 2.0), and the unread started_at took half this query.
RETURN collect({
  seq: e.seq,
  episode: CASE WHEN e.sensitivity IN $levels THEN e {  // above the ceiling: seq alone
    .id, .seq, .project, .kind, .title, .text, .outcome,
    parent: [parent IN [(e)-[:PART_OF]->(parent) | parent] WHERE parent:Episode | parent.id][0],
    // Its place among its parent's parts, by seq (fusion's session context).
    position: size([before IN siblings WHERE before.seq < e.seq]),
    // A text that asks something: the sibling after it, which holds the answer.
    reply: CASE WHEN e.text CONTAINS '?' THEN reduce(next = null, after IN siblings |
      CASE WHEN after.seq > e.seq AND (next IS NULL OR after.seq < next.seq) THEN after
           ELSE next END).id END
  } END,
  reached: reached
}) AS rows
