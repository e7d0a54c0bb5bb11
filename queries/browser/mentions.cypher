// Everything that mentions a name, across projects
// The episodes and beliefs that mention one entity (a name the entity layer found:
// a code identifier, path, package, error or proper name), each with its project.
// $name: an entity name, in any case (demo: FIN-212)
MATCH (entity:Entity {principal: $principal})
WHERE entity.name = toLower(trim($name))
RETURN entity,
  COLLECT {
    MATCH path = (entity)<-[:MENTIONS]-(:Episode {principal: $principal})
      -[:IN_PROJECT]->(:Project {principal: $principal})
    RETURN path
  } AS episodes,
  COLLECT {
    MATCH path = (entity)<-[:MENTIONS]-(:Belief {principal: $principal})
      -[:LEARNED_IN]->(:Project {principal: $principal})
    RETURN path
  } AS beliefs
