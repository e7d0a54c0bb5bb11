// Stores the vectors a view made for items of the principal that had none of its
// model, replacing any of another model: the next view reads them instead of embedding
// again. Each item is write-locked first, so two views storing the same item at once
// leave one :Embedding, not two.
UNWIND $rows AS row
CALL (row) {
  MATCH (n:Belief {id: row.id})
  USING INDEX SEEK n:Belief(id)
  WHERE n.principal = $principal
  RETURN n
  UNION
  MATCH (n:Episode {id: row.id})
  USING INDEX SEEK n:Episode(id)
  WHERE n.principal = $principal
  RETURN n
}
SET n.embedding_lock = true
REMOVE n.embedding_lock
MERGE (n)-[:EMBEDDED_AS]->(v:Embedding)
SET v.principal = $principal, v.model = row.vector_model, v.vectors = row.vectors
RETURN count(v) AS saved  // one record: the driver decodes each record in Python
