// Each project of one principal: its episodes; its live beliefs (learned there, any
// origin) grouped by type and state, with how many are promoted; its open conflicts
// (pairs of live beliefs, at least one learned there); when the last change about its
// memory was recorded; the agent-host sessions hooks injected context into there, and
// how many tokens in all.
MATCH (p:Project)
WHERE p.principal = $principal
CALL (p) {
  OPTIONAL MATCH (e:Episode)-[:IN_PROJECT]->(p)
  RETURN count(e) AS episodes
}
CALL (p) {
  OPTIONAL MATCH (b:Belief)-[:LEARNED_IN]->(p)
  WHERE b.state <> 'retired' AND b.superseded_at IS NULL
  WITH b.type AS type, b.state AS state, count(b) AS beliefs,
       sum(CASE WHEN b.scope = 'principal' THEN 1 ELSE 0 END) AS promoted
  RETURN collect(CASE WHEN beliefs > 0 THEN {type: type, state: state, beliefs: beliefs} END)
           AS groups,
         sum(promoted) AS promoted
}
CALL (p) {
  OPTIONAL MATCH (p)<-[:LEARNED_IN]-(a:Belief)-[:CONFLICTS_WITH]-(b:Belief)
  WHERE a.state <> 'retired' AND a.superseded_at IS NULL
    AND b.state <> 'retired' AND b.superseded_at IS NULL
  RETURN count(DISTINCT CASE
    WHEN b IS NULL THEN null
    WHEN a.id < b.id THEN [a.id, b.id]
    ELSE [b.id, a.id]
  END) AS open_conflicts
}
CALL (p) {
  OPTIONAL MATCH (p)<-[:IN_PROJECT|LEARNED_IN]-(n)<-[:ABOUT]-(event:MemoryEvent)
  RETURN max(event.at) AS last_activity
}
CALL (p) {
  OPTIONAL MATCH (t:RecallTrace {principal: p.principal, project: p.name})
  WHERE t.session_id IS NOT NULL
  RETURN count(DISTINCT CASE WHEN t.injected_tokens > 0 THEN t.session_id END)
           AS injected_sessions,
         sum(coalesce(t.injected_tokens, 0)) AS injected_tokens
}
RETURN p.name AS name, episodes, groups, promoted, open_conflicts, last_activity,
       injected_sessions, injected_tokens
ORDER BY name
LIMIT $limit
