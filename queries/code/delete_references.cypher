// Deletes the outgoing REFERENCES of the symbols of some files.
UNWIND $paths AS path
MATCH (s:Symbol {principal: $principal, project: $project, path: path})-[r:REFERENCES]->()
DELETE r
