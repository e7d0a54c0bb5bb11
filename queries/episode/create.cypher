// Creates a batch of episodes, each with its project (belonging to its principal) and
// parent links, TOUCHED links to the symbols its paths name (a file path: all its
// symbols; a key: that symbol) and MENTIONS links to the entities its names are (found
// by graphmem/entities: $names holds each name of the batch once, row.mentions the
// positions of the row's names in it; $projects holds each project once, row.in_project
// the position of the row's). Their seqs and events come next, from episode/stamp (the
// clock is taken last: see belief/stamp).
MERGE (principal:Principal {id: $principal})
  ON CREATE SET principal.created_at = $now
WITH principal
CALL (principal) {  // each project of the batch once, not once per row
  UNWIND $projects AS name
  MERGE (project:Project {principal: $principal, name: name})
    ON CREATE SET project.created_at = $now
  MERGE (project)-[:BELONGS_TO]->(principal)
  RETURN collect(project) AS projects
}
CALL () {  // each name of the batch once ($names), before the rows link to them
  UNWIND $names AS named
  MERGE (entity:Entity {principal: $principal, name: named.name})
    ON CREATE SET entity.kind = named.kind
  RETURN collect(entity) AS entities
}
UNWIND range(0, size($rows) - 1) AS i
WITH $rows[i] AS row, projects[$rows[i].in_project] AS project, entities
CREATE (e:Episode)
SET e = row.props, e.principal = $principal, e.recorded_at = $now
CREATE (e)-[:IN_PROJECT]->(project)
WITH e, row, entities
CALL (e, row) {
  MATCH (parent:Episode {id: row.parent})
  USING INDEX SEEK parent:Episode(id)
  WHERE parent.principal = $principal
  CREATE (e)-[:PART_OF]->(parent)
}
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
CALL (e, row, entities) {
  UNWIND row.mentions AS at
  WITH e, entities[at] AS entity
  CREATE (e)-[:MENTIONS]->(entity)
}
CALL (e, row) {  // the writer's vectors (store/embeddings.py), when it embedded
  WITH e, row
  WHERE row.vectors IS NOT NULL
  CREATE (e)-[:EMBEDDED_AS]->(:Embedding {
    principal: $principal, model: row.vector_model, vectors: row.vectors
  })
}
RETURN count(e) AS created  // one record: the driver decodes each record in Python
