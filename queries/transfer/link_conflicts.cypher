// Import: a batch of unresolved conflicts (newer CONFLICTS_WITH older).
UNWIND $rows AS row
MATCH (newer:Belief {id: row.source})
USING INDEX SEEK newer:Belief(id)
WHERE newer.principal = $principal
MATCH (older:Belief {id: row.target})
USING INDEX SEEK older:Belief(id)
WHERE older.principal = $principal
CREATE (newer)-[r:CONFLICTS_WITH]->(older)
SET r = row.props
RETURN count(*) AS written
