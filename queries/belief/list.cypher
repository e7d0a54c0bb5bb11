// Belief ids matching optional filters, in write order; superseded ones only if asked,
// retired ones only when $state asks for them; $promoted: principal scope only;
// $conflicted: only those CONFLICTS_WITH a live belief; $anchored: only those with an
// anchor key.
MATCH (b:Belief)
WHERE b.principal = $principal
  AND ($project IS NULL OR $project IN b.origins)
  AND ($type IS NULL OR b.type = $type)
  AND (($state IS NULL AND b.state <> 'retired') OR b.state = $state)
  AND ($scope IS NULL OR b.scope = $scope)
  AND ($include_superseded OR b.superseded_at IS NULL)
  AND (NOT $promoted OR b.scope = 'principal')
  AND (NOT $anchored OR b.anchor_key IS NOT NULL)
  AND (NOT $conflicted OR EXISTS {
    MATCH (b)-[:CONFLICTS_WITH]-(other:Belief)
    WHERE other.state <> 'retired' AND other.superseded_at IS NULL
  })
RETURN b.id AS id
ORDER BY b.seq, b.id
LIMIT $limit
