// Re-links TOUCHED from the project's episodes to new symbols: a path names a file
// (all its symbols) or a symbol key.
MATCH (e:Episode {principal: $principal, project: $project})
UNWIND e.paths AS path
CALL (path) {
  MATCH (s:Symbol {principal: $principal, project: $project, path: path})
  USING INDEX SEEK s:Symbol(principal, project, path)
  RETURN s
  UNION
  MATCH (s:Symbol {principal: $principal, project: $project, key: path})
  USING INDEX SEEK s:Symbol(principal, project, key)  // see code/link_contains
  RETURN s
}
WITH e, s
WHERE s.key IN $keys
MERGE (e)-[:TOUCHED]->(s)
