// The current symbol and file behind each anchor key in one project's code graph, and
// whether that project has a code graph at all.
CALL () {
  OPTIONAL MATCH (any:File {principal: $principal, project: $project})
  RETURN any IS NOT NULL AS indexed
  LIMIT 1
}
UNWIND $anchors AS anchor
OPTIONAL MATCH (s:Symbol {principal: $principal, project: $project, key: anchor.key})
OPTIONAL MATCH (f:File {principal: $principal, project: $project, path: anchor.path})
RETURN anchor.key AS key, s.hash AS hash, f.error AS file_error, indexed
