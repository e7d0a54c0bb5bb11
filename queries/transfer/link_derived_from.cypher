// Import: a batch of provenance links (belief DERIVED_FROM episode, with its role).
UNWIND $rows AS row
MATCH (b:Belief {id: row.source})
WHERE b.principal = $principal
MATCH (e:Episode {id: row.target})
WHERE e.principal = $principal
CREATE (b)-[r:DERIVED_FROM]->(e)
SET r = row.props
RETURN count(*) AS written
