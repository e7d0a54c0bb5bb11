// Live beliefs that may be shown at the start of a session in $project: its own, the
// principal-scope ones, and other projects' beliefs that may travel (not local, not
// excluded from it by a "not here" correction). One above the sensitivity ceiling
// ($levels: the levels the call may see) returns its seq alone.
// Not planned once per server (no replan=skip): the index hint fixes where it starts,
// not whether Neo4j keeps the index's order. Planned on a small store it chose to sort
// (Top) and kept that plan for the server's life; replanned as the store grows, it reads
// in index order (tests/integration/recall/test_read_plans.py). A replan takes about
// 160 ms, once in a while at a session's start; the sorting plan reads every live
// belief of the principal on every call.
MATCH (b:Belief {principal: $principal})
USING INDEX SEEK b:Belief(principal, seq)  // the index whose order the read keeps
WHERE b.seq IS NOT NULL
  AND b.superseded_at IS NULL AND b.state <> 'retired'
  AND (b.valid_to IS NULL OR b.valid_to > $now)
  AND ($project IN b.origins OR b.scope = 'principal' OR b.portability <> 'local')
  AND NOT $project IN coalesce(b.not_here, [])
// Newest first in the order of index belief_principal_seq (both its properties): Neo4j
// stops after $limit beliefs that pass.
WITH b
ORDER BY b.principal DESC, b.seq DESC
LIMIT $limit
WITH b, b.sensitivity IN $levels AS shown
// One record holding every row (one message for the driver to decode).
RETURN collect({
  seq: b.seq,
  belief: CASE WHEN shown THEN b {  // above the ceiling: its seq only, counted as withheld
    .id, .seq, .statement, .subject, .type, .confidence, .state, .scope, .portability,
    .origins, .project, .anchor_key, .anchor_hash, .authority, .disputed,
    stale: b.stale_since IS NOT NULL
  } END,
  evidence: CASE WHEN shown THEN [e IN [(b)-[:DERIVED_FROM]->(e) | e] WHERE e:Episode | e.id] END,
  conflicts: CASE WHEN shown THEN [other IN [(b)-[:CONFLICTS_WITH]-(other) | other]
                                   WHERE other:Belief AND other.principal = $principal
                                   | other.id] END
}) AS rows
