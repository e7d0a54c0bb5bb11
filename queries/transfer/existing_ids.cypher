// Import: which of these ids are taken in the store, and whether by $principal (an id
// is unique across principals, so another's id is a collision to map, never a write).
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
RETURN id, n.principal = $principal AS owned
