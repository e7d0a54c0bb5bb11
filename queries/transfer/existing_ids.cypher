// Import: which of these ids are taken in the store, and whether by $principal (an id
// is unique across principals, so another's id is a collision to map, never a write).
UNWIND $ids AS id
CALL (id) {
  MATCH (n:Belief {id: id}) RETURN n
  UNION
  MATCH (n:Episode {id: id}) RETURN n
  UNION
  MATCH (n:Rejection {id: id}) RETURN n
  UNION
  MATCH (n:Tombstone {id: id}) RETURN n
}
RETURN id, n.principal = $principal AS owned
