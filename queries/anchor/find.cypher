// Symbols a writer's anchor may mean: by key, or by file path and name/qualified name.
UNWIND range(0, size($anchors) - 1) AS i
WITH i, $anchors[i] AS anchor
OPTIONAL MATCH (s:Symbol {principal: $principal, project: anchor.project, path: anchor.path})
USING INDEX SEEK s:Symbol(principal, project, path)  // not every symbol of the principal
WHERE s.key = anchor.key OR s.qualname = anchor.symbol OR s.name = anchor.symbol
RETURN i, collect({key: s.key, hash: s.hash, qualname: s.qualname}) AS matches
