// Back-fill (`reindex`): sets each node's MENTIONS to exactly its names ($rows: id and
// names), creating the entities it needs; an entity left with no mention goes.
// The clock is locked first, as in every memory write (see belief/create).
MATCH (clock:Clock {id: 'memory'})
SET clock.locked = true
REMOVE clock.locked
WITH clock
UNWIND $rows AS row
CALL (row) {
  MATCH (n:Episode {id: row.id})
  USING INDEX SEEK n:Episode(id)
  WHERE n.principal = $principal
  RETURN n
  UNION
  MATCH (n:Belief {id: row.id})
  USING INDEX SEEK n:Belief(id)
  WHERE n.principal = $principal
  RETURN n
}
CALL (n, row) {
  MATCH (n)-[m:MENTIONS]->(old:Entity)
  WHERE NOT old.name IN [named IN row.names | named.name]
  DELETE m
  WITH old
  WHERE NOT EXISTS { (old)<-[:MENTIONS]-() }
  DELETE old
}
CALL (n, row) {
  UNWIND row.names AS named
  MERGE (entity:Entity {principal: $principal, name: named.name})
    ON CREATE SET entity.kind = named.kind
  MERGE (n)-[:MENTIONS]->(entity)
}
RETURN count(*) AS linked
