// The creation seqs of the principal's episodes that happened in [$start, $end)
// (optionally in one project): the time arm ranks only these.
MATCH (e:Episode)
WHERE e.principal = $principal AND ($project IS NULL OR e.project = $project)
  AND coalesce(e.started_at, e.recorded_at) >= $start
  AND coalesce(e.started_at, e.recorded_at) < $end
RETURN e.seq AS seq
ORDER BY seq
LIMIT $limit
