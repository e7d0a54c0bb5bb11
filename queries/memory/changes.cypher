// One principal's changes of the given event types after a seq or from a time, oldest
// first, each with the statement (or episode title) and project it concerns. Events
// about a node that is gone (forgotten) are left out, except the forgetting itself.
// A secret node's text is never shown here: its statement reads $redacted.
MATCH (e:MemoryEvent)
WHERE e.principal = $principal AND e.type IN $types
  AND ($since_seq IS NULL OR e.seq > $since_seq)
  AND ($since_at IS NULL OR e.at >= $since_at)
OPTIONAL MATCH (e)-[:ABOUT]->(n)
WITH e, n, coalesce(e.project, n.project) AS project
WHERE (n IS NOT NULL OR e.type = 'belief.deleted')
  AND ($project IS NULL OR project = $project OR $project IN coalesce(n.origins, []))
RETURN e.seq AS seq, e.type AS type, e.at AS at, e.actor AS actor, e.node_id AS node_id,
       project,
       CASE WHEN n.sensitivity = 'secret' THEN $redacted
            WHEN n:Belief THEN n.statement WHEN n:Episode THEN n.title END AS statement,
       e.statement_sha256 AS statement_sha256,
       CASE e.type
         WHEN 'belief.superseded' THEN head([newer IN [(n)<-[:SUPERSEDES]-(newer) | newer] WHERE newer:Belief | newer.id])
         ELSE coalesce(e.other_id, e.episode_id)
       END AS related_id,
       CASE e.type
         WHEN 'belief.retired' THEN n.retired_reason
         WHEN 'belief.superseded' THEN head([r IN [(n)<-[r:SUPERSEDES]-() | r] WHERE startNode(r):Belief | r.reason])
       END AS reason,
       e.kind AS correction, e.from_state AS anchor_from, e.to_state AS anchor_to
ORDER BY e.seq
LIMIT $limit
