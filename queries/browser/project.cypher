// A project's memory: its episodes and the beliefs learned in it
// Episodes are IN_PROJECT; beliefs link LEARNED_IN every project they were learned in,
// superseded and retired ones too (SUPERSEDES shows which replaced which).
// $project: the project's name (demo: billing-api)
MATCH (me:Principal {id: $principal})
MATCH (project:Project {principal: $principal, name: $project})-[owns:BELONGS_TO]->(me)
RETURN me, owns, project,
  COLLECT {
    MATCH path = (:Episode {principal: $principal})-[:IN_PROJECT]->(project)
    RETURN path
  } AS episodes,
  COLLECT {
    MATCH path = (:Belief {principal: $principal})-[:LEARNED_IN]->(project)
    RETURN path
  } AS beliefs
