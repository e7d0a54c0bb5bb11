// Import: a batch of corrections (:Rejection), each REJECTS its belief when it has one.
UNWIND $rows AS row
CREATE (r:Rejection)
SET r = row.props, r.id = row.id, r.principal = $principal
WITH r, row
CALL (r, row) {
  MATCH (b:Belief {id: row.belief})
  USING INDEX SEEK b:Belief(id)
  WHERE b.principal = $principal
  CREATE (r)-[:REJECTS]->(b)
}
RETURN count(*) AS written
