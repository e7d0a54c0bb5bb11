// Candidate beliefs of one recall, in one round trip: the arms' hits ($seqs, creation
// seqs) and the graph arm's expansion from its seeds ($seeds), all through the hard
// filters (design §5.1): principal; live (not superseded, not retired, valid now) or
// valid and recorded at $as_of; a local belief only in its own project; not in a
// project a "not here" correction excluded (`not_here`); optional types. A candidate
// above the call's sensitivity ceiling ($levels: the levels it may see) comes back as
// its seq alone: nothing of it leaves the database.
//
// From each seed the graph arm reaches beliefs anchored to the same symbol (1 hop) or
// to a symbol it CONTAINS or is contained by (2), sharing its subject (1), or derived
// from one of its episodes (2), or mentioning an entity it mentions ($entity_hops; a
// name more than $max_share of the principal's beliefs (or $max_mentions) mention is
// skipped, the rest weigh 1 / mentions, IDF-like): the nearest $per_seed per seed,
// rarest shared names first, then newest. `reached` lists (seed seq, hops) for each
// belief found that way.
// Planned once per server (replan=skip): planning it takes ~0.3 s, and every node it
// starts from is named by an index hint, so the plan does not depend on statistics; a
// store that grows or gains principals keeps it instead of replanning in the middle of
// a recall (episode_candidates, replanned so, gave searches of 135-190 ms).
CYPHER replan=skip
CALL () {
  UNWIND $seqs AS seq
  MATCH (b:Belief {seq: seq})
  USING INDEX SEEK b:Belief(seq)
  RETURN b, null AS seed, null AS hops
  UNION
  MATCH (principal:Principal {id: $principal})<-[:BELONGS_TO]-(project:Project)
  USING INDEX SEEK principal:Principal(id)
  WITH sum(COUNT { (project)<-[:LEARNED_IN]-() }) AS beliefs
  UNWIND $seeds AS seed_seq
  MATCH (seed:Belief {seq: seed_seq})
  USING INDEX SEEK seed:Belief(seq)
  WHERE seed.principal = $principal
  // Each walk goes out from the seed, one pattern comprehension a step, and tests what
  // it reached after (see the lists below): a MATCH naming the far node's label may be
  // planned from that label, once per seed.
  CALL (seed, beliefs) {
    UNWIND [symbol IN [(seed)-[:ANCHORED_TO]->(symbol) | symbol] WHERE symbol:Symbol] AS symbol
    UNWIND [other IN [(symbol)<-[:ANCHORED_TO]-(other) | other] WHERE other:Belief] AS other
    RETURN other, 1 AS hops, 0.0 AS rarity
    UNION
    UNWIND [symbol IN [(seed)-[:ANCHORED_TO]->(symbol) | symbol] WHERE symbol:Symbol] AS symbol
    UNWIND [near IN [(symbol)-[:CONTAINS]-(near) | near] WHERE near:Symbol] AS near
    UNWIND [other IN [(near)<-[:ANCHORED_TO]-(other) | other] WHERE other:Belief] AS other
    RETURN other, 2 AS hops, 0.0 AS rarity
    UNION
    MATCH (other:Belief)
    USING INDEX SEEK other:Belief(principal, subject, seq)  // the order kept below
    WHERE seed.subject IS NOT NULL AND other.principal = seed.principal
      AND other.subject = seed.subject AND other.seq IS NOT NULL
    // The newest (+1: the seed), read in the order of index belief_principal_subject_seq:
    // an ORDER BY on all three of its properties lets Neo4j stop after the first few.
    WITH other ORDER BY other.principal DESC, other.subject DESC, other.seq DESC
      LIMIT $per_seed + 1
    RETURN other, 1 AS hops, 0.0 AS rarity
    UNION
    UNWIND [episode IN [(seed)-[:DERIVED_FROM]->(episode) | episode] WHERE episode:Episode]
      AS episode
    UNWIND [other IN [(episode)<-[:DERIVED_FROM]-(other) | other] WHERE other:Belief] AS other
    RETURN other, 2 AS hops, 0.0 AS rarity
    UNION
    UNWIND [entity IN [(seed)-[:MENTIONS]->(entity) | entity] WHERE entity:Entity] AS entity
    WITH entity, COUNT { (entity)<-[:MENTIONS]-() } AS mentions
    WHERE 1 < mentions AND mentions <= $max_mentions
      AND (mentions <= $min_mentions OR mentions <= $max_share * beliefs)
    UNWIND [other IN [(entity)<-[:MENTIONS]-(other) | other] WHERE other:Belief] AS other
    RETURN other, $entity_hops AS hops, sum(1.0 / mentions) AS rarity
  }
  WITH seed, other, min(hops) AS hops, max(rarity) AS rarity
  WHERE other.principal = $principal AND other <> seed
  ORDER BY hops, rarity DESC, other.seq DESC
  WITH seed, collect({node: other, hops: hops, rarity: rarity})[..$per_seed] AS nearest
  UNWIND nearest AS near
  RETURN near.node AS b, seed.seq AS seed, near.hops AS hops
}
WITH b, collect(CASE WHEN seed IS NULL THEN null ELSE {seed: seed, hops: hops} END) AS reached
WHERE b.principal = $principal
  AND ($types IS NULL OR b.type IN $types)
  AND (
    ($as_of IS NULL AND b.superseded_at IS NULL AND b.state <> 'retired'
      AND (b.valid_to IS NULL OR b.valid_to > $now))
    OR ($as_of IS NOT NULL AND b.recorded_at <= $as_of AND b.valid_from <= $as_of
      AND (b.valid_to IS NULL OR b.valid_to > $as_of))
  )
  AND NOT (
    $project IS NOT NULL AND b.portability = 'local' AND b.scope = 'project'
    AND NOT $project IN b.origins
  )
  AND NOT ($project IS NOT NULL AND $project IN coalesce(b.not_here, []))
WITH b, reached, b.sensitivity IN $levels AS shown
// One record holding every row: the driver decodes one message, not one per candidate
// (at 100k beliefs that halved this query's client CPU, 6.2 to 2.9 ms).
RETURN collect({
  seq: b.seq,
  belief: CASE WHEN shown THEN b {  // above the ceiling: its seq only, counted as withheld
    .id, .seq, .statement, .subject, .type, .confidence, .scope, .portability,
    .origins, .project, .anchor_key, .anchor_hash, .authority, .disputed, .cited_seq,
    state: coalesce(b.retired_from, b.state),  // what a past (as_of) read weighs
    stale: b.stale_since IS NOT NULL AND ($as_of IS NULL OR b.stale_since <= $as_of)
  } END,
  reached: reached,
  // Each list walks out from b, then tests what it reached: with a label or a test on
  // the far node inside the pattern, the planner may start there instead, reading every
  // belief of the principal once per row (at 2,000 beliefs: 992k db hits for 78 rows).
  evidence: CASE WHEN shown THEN [e IN [(b)-[:DERIVED_FROM]->(e) | e] WHERE e:Episode | e.id] END,
  conflicts: CASE WHEN shown THEN [other IN [(b)-[:CONFLICTS_WITH]-(other) | other]
                                   WHERE other:Belief AND other.principal = $principal
                                   | other.id] END
}) AS rows
