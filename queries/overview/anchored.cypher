// One principal's live anchored beliefs (learned in $project, when given) and the
// projects they were learned in: what the overview and an index run check against a
// project's code graph. A secret belief's statement reads $redacted (it is printed).
MATCH (b:Belief)
WHERE b.principal = $principal AND b.anchor_key IS NOT NULL
  AND b.state <> 'retired' AND b.superseded_at IS NULL
  AND ($project IS NULL OR $project IN b.origins)
RETURN b.id AS id, b.project AS project, b.anchor_key AS anchor_key,
       b.anchor_hash AS anchor_hash, b.origins AS origins,
       CASE WHEN b.sensitivity = 'secret' THEN $redacted ELSE b.statement END AS statement
ORDER BY b.seq, b.id
LIMIT $limit
