// Deletes the outgoing REFERENCES of the symbols of some files.
UNWIND $paths AS path
MATCH (s:Symbol {principal: $principal, project: $project, path: path})-[r:REFERENCES]->()
USING INDEX SEEK s:Symbol(principal, project, path)
DELETE r
