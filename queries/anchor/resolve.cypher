// The current symbol and file behind each anchor key in one project's code graph, and
// whether that project has a code graph at all.
CALL () {
  OPTIONAL MATCH (any:File {principal: $principal, project: $project})
  RETURN any IS NOT NULL AS indexed
  LIMIT 1
}
UNWIND $anchors AS anchor
// The hints name the uniqueness constraints' indexes: the planner may otherwise seek
// by principal and filter, once per anchor.
OPTIONAL MATCH (s:Symbol {principal: $principal, project: $project, key: anchor.key})
USING INDEX SEEK s:Symbol(principal, project, key)
OPTIONAL MATCH (f:File {principal: $principal, project: $project, path: anchor.path})
USING INDEX SEEK f:File(principal, project, path)
RETURN anchor.key AS key, s.hash AS hash, f.error AS file_error, indexed
