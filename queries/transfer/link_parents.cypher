// Import: a batch of PART_OF links between the principal's episodes.
UNWIND $rows AS row
MATCH (child:Episode {id: row.source})
USING INDEX SEEK child:Episode(id)
WHERE child.principal = $principal
MATCH (parent:Episode {id: row.target})
USING INDEX SEEK parent:Episode(id)
WHERE parent.principal = $principal
CREATE (child)-[:PART_OF]->(parent)
RETURN count(*) AS written
