// Everything about a code symbol, across projects
// Symbols with this qualified name (or symbol key) in any indexed project, the file that
// contains each, the beliefs anchored to it and the episodes that touched it.
// $symbol: a qualified name or a symbol key (demo: Invoice.total)
MATCH (s:Symbol {principal: $principal})
WHERE s.qualname = $symbol OR s.key = $symbol
RETURN s,
  COLLECT {
    MATCH path = (:File {principal: $principal})-[:CONTAINS*1..4]->(s)
    WHERE all(n IN nodes(path) WHERE n.principal = $principal)
    RETURN path
  } AS files,
  COLLECT {
    MATCH path = (:Belief {principal: $principal})-[:ANCHORED_TO]->(s)
    RETURN path
  } AS beliefs,
  COLLECT {
    MATCH path = (:Episode {principal: $principal})-[:TOUCHED]->(s)
    RETURN path
  } AS episodes
