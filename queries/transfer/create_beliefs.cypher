// Import: a batch of beliefs with their seqs, each LEARNED_IN its origins and
// ANCHORED_TO its anchor's symbol when the principal has it indexed, and MENTIONS the
// entities its names are (row.names; entities are derived, never exported).
MATCH (principal:Principal {id: $principal})
UNWIND $rows AS row
CREATE (b:Belief)
SET b = row.props, b.id = row.id, b.seq = row.seq, b.principal = $principal
WITH b, row, principal
CALL (b, principal) {
  UNWIND b.origins AS name
  MERGE (project:Project {principal: $principal, name: name})
    ON CREATE SET project.created_at = b.recorded_at
  MERGE (project)-[:BELONGS_TO]->(principal)
  MERGE (b)-[:LEARNED_IN]->(project)
}
CALL (b) {
  // By key (the index on key alone): left to itself the planner seeks by principal
  // and reads every symbol the principal has indexed, for every belief written.
  MATCH (s:Symbol {key: b.anchor_key})
  USING INDEX SEEK s:Symbol(key)
  WHERE s.principal = $principal
  MERGE (b)-[:ANCHORED_TO]->(s)
}
CALL (b, row) {
  UNWIND row.names AS named
  MERGE (entity:Entity {principal: $principal, name: named.name})
    ON CREATE SET entity.kind = named.kind
  CREATE (b)-[:MENTIONS]->(entity)
}
RETURN count(*) AS written
