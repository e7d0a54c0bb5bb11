// Beliefs by id, in the order asked, with provenance and supersession neighbours.
UNWIND range(0, size($ids) - 1) AS i
MATCH (b:Belief {id: $ids[i]})
USING INDEX SEEK b:Belief(id)
WHERE b.principal = $principal
CALL (b) {
  OPTIONAL MATCH (b)-[d:DERIVED_FROM]->(e:Episode)
  WITH d, e ORDER BY e.id
  RETURN collect(CASE WHEN e IS NULL THEN null ELSE {episode_id: e.id, role: d.role} END)
    AS evidence
}
OPTIONAL MATCH (newer:Belief)-[:SUPERSEDES]->(b)
OPTIONAL MATCH (b)-[:SUPERSEDES]->(older:Belief)
RETURN b {.*} AS belief, evidence, newer.id AS superseded_by, older.id AS supersedes
ORDER BY i
