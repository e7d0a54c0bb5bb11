// Open conflicts: live beliefs that contradict each other, with the episodes behind each
// CONFLICTS_WITH links a newer belief to the one it contradicts when neither could
// supersede the other; both stay live, flagged, until someone resolves it.
MATCH (a:Belief {principal: $principal})-[conflict:CONFLICTS_WITH]->(b:Belief {principal: $principal})
WHERE a.superseded_at IS NULL AND a.state <> 'retired'
  AND b.superseded_at IS NULL AND b.state <> 'retired'
RETURN a, conflict, b,
  COLLECT {
    MATCH path = (x:Belief {principal: $principal})-[:DERIVED_FROM]->(:Episode {principal: $principal})
    WHERE x = a OR x = b
    RETURN path
  } AS evidence
