// Import: a batch of supersession links (newer SUPERSEDES older: reason, actor, at).
UNWIND $rows AS row
MATCH (newer:Belief {id: row.source})
USING INDEX SEEK newer:Belief(id)
WHERE newer.principal = $principal
MATCH (older:Belief {id: row.target})
USING INDEX SEEK older:Belief(id)
WHERE older.principal = $principal
CREATE (newer)-[r:SUPERSEDES]->(older)
SET r = row.props
RETURN count(*) AS written
