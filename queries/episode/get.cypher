// Episodes by id, in the order asked, with their parent.
UNWIND range(0, size($ids) - 1) AS i
MATCH (e:Episode {id: $ids[i]})
USING INDEX SEEK e:Episode(id)
WHERE e.principal = $principal
OPTIONAL MATCH (e)-[:PART_OF]->(parent:Episode)
RETURN e {.*} AS episode, parent.id AS parent
ORDER BY i
