// Import: a batch of tombstones (content digests of forgotten beliefs).
UNWIND $rows AS row
CREATE (t:Tombstone)
SET t = row.props, t.id = row.id, t.principal = $principal
RETURN count(*) AS written
