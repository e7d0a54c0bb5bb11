// Everything about a subject, across projects
// The beliefs on the subject (any case), where each was learned and the episodes behind it.
// $subject: a belief subject (demo: invoice rounding mode)
MATCH (b:Belief {principal: $principal})
WHERE toLower(b.subject) = toLower($subject)
RETURN b,
  COLLECT {
    MATCH path = (b)-[:LEARNED_IN]->(:Project {principal: $principal})
    RETURN path
  } AS learned_in,
  COLLECT {
    MATCH path = (b)-[:DERIVED_FROM]->(:Episode {principal: $principal})
    RETURN path
  } AS evidence,
  COLLECT {
    MATCH path = (b)-[:SUPERSEDES|CONFLICTS_WITH]-(:Belief {principal: $principal})
    RETURN path
  } AS related
