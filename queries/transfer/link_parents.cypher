// Import: a batch of PART_OF links between the principal's episodes.
UNWIND $rows AS row
MATCH (child:Episode {id: row.source})
WHERE child.principal = $principal
MATCH (parent:Episode {id: row.target})
WHERE parent.principal = $principal
CREATE (child)-[:PART_OF]->(parent)
RETURN count(*) AS written
