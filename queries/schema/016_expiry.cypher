// Expiry of formed beliefs (docs/formation.md#expiry): a formed belief (it carries a
// policy_version) records when it was last confirmed. Formed beliefs written before
// this take the later of when they were recorded and their last reinforcement.
MATCH (b:Belief)
WHERE b.policy_version IS NOT NULL AND b.last_confirmed_at IS NULL
CALL (b) {
  OPTIONAL MATCH (event:MemoryEvent {type: 'belief.reinforced'})-[:ABOUT]->(b)
  WITH b, max(event.at) AS reinforced
  SET b.last_confirmed_at = CASE WHEN reinforced > b.recorded_at THEN reinforced
                                 ELSE b.recorded_at END
} IN TRANSACTIONS OF 5000 ROWS;
// An expiry run seeks a principal's formed beliefs by when they were last confirmed,
// and its stale ones by when they were demoted.
CREATE INDEX belief_principal_confirmed IF NOT EXISTS FOR (n:Belief) ON (n.principal, n.last_confirmed_at);
CREATE INDEX belief_principal_stale IF NOT EXISTS FOR (n:Belief) ON (n.principal, n.stale_since);
