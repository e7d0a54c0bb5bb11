// Candidate beliefs (by id or creation seq) that pass the hard filters (design §5.1):
// principal; live (not superseded, not retired, valid now) or valid and recorded at
// $as_of; a local belief only in its own project; optional types. Returns what ranking
// and rendering need.
CALL () {
  UNWIND $ids AS id
  MATCH (b:Belief {id: id})
  RETURN b
  UNION
  UNWIND $seqs AS seq
  MATCH (b:Belief {seq: seq})
  RETURN b
}
WITH b
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
RETURN b {
  .id, .seq, .statement, .subject, .type, .confidence, .state, .scope, .portability,
  .origins, .project, .anchor_key, .anchor_hash, .authority
} AS belief,
  [(b)-[:DERIVED_FROM]->(e:Episode) | e.id] AS evidence,
  [(b)-[:CONFLICTS_WITH]-(other:Belief) WHERE other.principal = $principal | other.id]
    AS conflicts
