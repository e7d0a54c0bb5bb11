// Deletes files and their symbols.
UNWIND $paths AS path
MATCH (f:File {principal: $principal, project: $project, path: path})
OPTIONAL MATCH (s:Symbol {principal: $principal, project: $project, path: path})
DETACH DELETE s, f
