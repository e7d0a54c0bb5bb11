// What an episode led to: the beliefs derived from it and what later replaced them
// With the episode's project, the episodes it is PART_OF or that are part of it, and
// the code symbols it TOUCHED.
// $id: an episode's id (`graphmem browse EPISODE_ID` sets it)
MATCH (e:Episode {principal: $principal, id: $id})
RETURN e,
  COLLECT {
    MATCH path = (:Belief {principal: $principal})-[:DERIVED_FROM]->(e)
    RETURN path
  } AS beliefs,
  COLLECT {
    MATCH path = (:Belief {principal: $principal})-[:SUPERSEDES*1..]->(:Belief)-[:DERIVED_FROM]->(e)
    WHERE all(n IN nodes(path) WHERE n.principal = $principal)
    RETURN path
  } AS replaced_by,
  COLLECT {
    MATCH path = (e)-[:IN_PROJECT|PART_OF|TOUCHED]-(n)
    WHERE n.principal = $principal
    RETURN path
  } AS context
