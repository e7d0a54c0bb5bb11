// Undoes part of an import that did not finish: the nodes of $principal among the
// file's ids (all written by the import: it refuses a file the store held part of),
// with their links and any vectors a view stored for them.
UNWIND $ids AS id
CALL (id) {
  MATCH (n:Belief {id: id}) USING INDEX SEEK n:Belief(id) RETURN n
  UNION
  MATCH (n:Episode {id: id}) USING INDEX SEEK n:Episode(id) RETURN n
  UNION
  MATCH (n:Rejection {id: id}) USING INDEX SEEK n:Rejection(id) RETURN n
  UNION
  MATCH (n:Tombstone {id: id}) USING INDEX SEEK n:Tombstone(id) RETURN n
}
WITH n
WHERE n.principal = $principal
CALL (n) {
  OPTIONAL MATCH (n)-[:EMBEDDED_AS]->(v:Embedding)
  DETACH DELETE v
}
DETACH DELETE n
RETURN count(*) AS undone
