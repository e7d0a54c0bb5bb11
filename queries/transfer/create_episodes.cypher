// Import: a batch of episodes with their seqs, each IN_PROJECT and TOUCHED the
// symbols its paths name when the principal has that project's code graph, and
// MENTIONS the entities its names are (row.names; entities are derived, never exported).
UNWIND $rows AS row
MATCH (project:Project {principal: $principal, name: row.props.project})
CREATE (e:Episode)
SET e = row.props, e.id = row.id, e.seq = row.seq, e.principal = $principal
CREATE (e)-[:IN_PROJECT]->(project)
WITH e, row
CALL (e) {
  UNWIND e.paths AS path
  CALL (e, path) {
    MATCH (s:Symbol {principal: $principal, project: e.project, path: path})
    RETURN s
    UNION
    MATCH (s:Symbol {principal: $principal, project: e.project, key: path})
    RETURN s
  }
  MERGE (e)-[:TOUCHED]->(s)
}
CALL (e, row) {
  UNWIND row.names AS named
  MERGE (entity:Entity {principal: $principal, name: named.name})
    ON CREATE SET entity.kind = named.kind
  CREATE (e)-[:MENTIONS]->(entity)
}
RETURN count(*) AS written
