// Episodes formation has not run over yet, oldest first.
MATCH (e:Episode)
WHERE e.principal = $principal AND e.consolidated_at IS NULL
RETURN e.id AS id
ORDER BY e.seq, e.id
LIMIT $limit
