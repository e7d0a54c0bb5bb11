// One belief's neighbourhood: evidence, projects, supersession, conflicts and anchor
// The episodes it was DERIVED_FROM, the projects it was LEARNED_IN, the whole chain of
// beliefs it replaced or that replaced it, open conflicts and the code it is anchored to.
// $id: a belief's id (`graphmem browse BELIEF_ID` sets it)
MATCH (b:Belief {principal: $principal, id: $id})
RETURN b,
  COLLECT {
    MATCH path = (b)-[:DERIVED_FROM|LEARNED_IN|ANCHORED_TO|CONFLICTS_WITH]-(n)
    WHERE n.principal = $principal
    RETURN path
  } AS neighbours,
  COLLECT {
    MATCH path = (b)-[:SUPERSEDES*1..]-(:Belief {principal: $principal})
    WHERE all(n IN nodes(path) WHERE n.principal = $principal)
    RETURN path
  } AS chain
