// Undoes part of an import that did not finish: the projects it created, once nothing
// links to them (run after its nodes are undone; a project another write used stays).
MATCH (run:ImportRun {id: $key})
WHERE run.principal = $principal
UNWIND run.projects AS name
MATCH (project:Project {principal: $principal, name: name})
WHERE NOT EXISTS { (project)<--() }
DETACH DELETE project
