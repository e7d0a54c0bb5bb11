// Import: a batch of provenance links (belief DERIVED_FROM episode, with its role).
UNWIND $rows AS row
MATCH (b:Belief {id: row.source})
USING INDEX SEEK b:Belief(id)
WHERE b.principal = $principal
MATCH (e:Episode {id: row.target})
USING INDEX SEEK e:Episode(id)
WHERE e.principal = $principal
CREATE (b)-[r:DERIVED_FROM]->(e)
SET r = row.props
RETURN count(*) AS written
