// Supersession chains: which belief replaced which, and why
// Each chain runs from the newest belief to the oldest it replaced; a SUPERSEDES link
// carries the reason.
MATCH path = (newest:Belief {principal: $principal})-[:SUPERSEDES*1..]->(oldest:Belief)
WHERE all(n IN nodes(path) WHERE n.principal = $principal)
  AND NOT EXISTS { MATCH (:Belief {principal: $principal})-[:SUPERSEDES]->(newest) }
  AND NOT EXISTS { MATCH (oldest)-[:SUPERSEDES]->(:Belief {principal: $principal}) }
RETURN path
