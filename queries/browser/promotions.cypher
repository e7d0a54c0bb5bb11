// Promotions: beliefs promoted to principal scope and the projects they were learned in
// A belief supported in two projects is promoted from project to principal scope; each
// LEARNED_IN link leads to a project it came from.
MATCH (b:Belief {principal: $principal, scope: 'principal'})
WHERE b.superseded_at IS NULL AND b.state <> 'retired'
MATCH path = (b)-[:LEARNED_IN]->(:Project {principal: $principal})
  -[:BELONGS_TO]->(:Principal {id: $principal})
RETURN path
