// When the principal's newest episode happened (optionally in one project): what a
// question's relative time ("last May", "two weeks ago") is resolved against when the
// query gives no as_of. Read from the store, never the clock, so answers repeat.
MATCH (e:Episode)
WHERE e.principal = $principal AND ($project IS NULL OR e.project = $project)
RETURN max(coalesce(e.started_at, e.recorded_at)) AS at
