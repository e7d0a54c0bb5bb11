// Where a vanished anchor may have gone: same content anywhere in the project, the
// symbols of its file, and symbols with its name elsewhere.
UNWIND $anchors AS anchor
CALL (anchor) {
  MATCH (s:Symbol {hash: anchor.hash})
  USING INDEX SEEK s:Symbol(hash)  // not every symbol of the principal
  WHERE s.principal = $principal AND s.project = $project
  RETURN s, 'same content' AS reason
  UNION
  MATCH (s:Symbol {principal: $principal, project: $project, path: anchor.path})
  USING INDEX SEEK s:Symbol(principal, project, path)
  RETURN s, 'same file' AS reason
  UNION
  MATCH (s:Symbol {name: anchor.name})
  USING INDEX SEEK s:Symbol(name)
  WHERE s.principal = $principal AND s.project = $project
  RETURN s, 'same name' AS reason
}
RETURN anchor.key AS anchor, s.key AS key, s.qualname AS qualname, reason
