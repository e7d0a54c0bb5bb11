// Creates a batch of beliefs with provenance edges, anchor links, a LEARNED_IN link to
// each project it was learned in (its origins) and MENTIONS links to the entities its
// names are (found by graphmem/entities: $names holds each name of the batch once,
// row.mentions the positions of the row's names in it). The projects come the same
// way: $projects once each, row.learned_in the positions of the row's origins. Their
// seqs and events come next, from belief/stamp: the clock is taken last, so writers
// hold it only for the stamp and the commit, not for this statement's work.
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
WITH $rows[i] AS row, projects, entities
CREATE (b:Belief)
SET b = row.props, b.principal = $principal, b.recorded_at = $now,
    // valid from now unless the row says otherwise: one $now, not a datetime per row
    // (the driver packs each datetime in Python, ~0.1-0.3 ms apiece)
    b.valid_from = coalesce(row.props.valid_from, $now)
WITH b, row, projects, entities
CALL (b, row, projects) {
  UNWIND row.learned_in AS at
  WITH b, projects[at] AS project
  CREATE (b)-[:LEARNED_IN]->(project)
}
CALL (b, row) {
  UNWIND row.evidence AS evidence
  MATCH (e:Episode {id: evidence.episode_id})
  USING INDEX SEEK e:Episode(id)
  WHERE e.principal = $principal
  CREATE (b)-[:DERIVED_FROM {role: evidence.role}]->(e)
}
CALL (b) {
  // By key (the index on key alone): left to itself the planner seeks by principal
  // and reads every symbol the principal has indexed, for every belief written.
  MATCH (s:Symbol {key: b.anchor_key})
  USING INDEX SEEK s:Symbol(key)
  WHERE s.principal = $principal
  MERGE (b)-[:ANCHORED_TO]->(s)
}
CALL (b, row, entities) {
  UNWIND row.mentions AS at
  WITH b, entities[at] AS entity
  CREATE (b)-[:MENTIONS]->(entity)
}
CALL (b, row) {  // the writer's vectors (store/embeddings.py), when it embedded
  WITH b, row
  WHERE row.vectors IS NOT NULL
  CREATE (b)-[:EMBEDDED_AS]->(:Embedding {
    principal: $principal, model: row.vector_model, vectors: row.vectors
  })
}
RETURN count(b) AS created  // one record: the driver decodes each record in Python
