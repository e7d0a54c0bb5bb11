// Memory-side structure for exploration (issue 11): each project belongs to its
// principal, and each belief links to every project it was learned in (its origins).
// Later writes keep both up to date; this links what was written before.
MATCH (project:Project)
CALL (project) {
  MERGE (owner:Principal {id: project.principal})
    ON CREATE SET owner.created_at = project.created_at
  MERGE (project)-[:BELONGS_TO]->(owner)
} IN TRANSACTIONS OF 1000 ROWS;
MATCH (b:Belief)
CALL (b) {
  MERGE (owner:Principal {id: b.principal})
    ON CREATE SET owner.created_at = b.recorded_at
  WITH b, owner
  UNWIND b.origins AS name
  MERGE (project:Project {principal: b.principal, name: name})
    ON CREATE SET project.created_at = b.recorded_at
  MERGE (project)-[:BELONGS_TO]->(owner)
  MERGE (b)-[:LEARNED_IN]->(project)
} IN TRANSACTIONS OF 1000 ROWS;
