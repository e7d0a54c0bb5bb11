// The symbols of some files, with their hash, lines and containing symbol.
UNWIND $paths AS path
MATCH (s:Symbol {principal: $principal, project: $project, path: path})
USING INDEX SEEK s:Symbol(principal, project, path)
OPTIONAL MATCH (parent:Symbol)-[:CONTAINS]->(s)
RETURN s.key AS key, s.hash AS hash, s.start_line AS start_line, s.end_line AS end_line,
       parent.key AS parent
