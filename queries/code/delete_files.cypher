// Deletes files and their symbols.
UNWIND $paths AS path
MATCH (f:File {principal: $principal, project: $project, path: path})
USING INDEX SEEK f:File(principal, project, path)  // see code/link_contains
OPTIONAL MATCH (s:Symbol {principal: $principal, project: $project, path: path})
DETACH DELETE s, f
