// Candidate episodes (by id or creation seq) of one principal, optionally one project,
// that had happened by $as_of.
CALL () {
  UNWIND $ids AS id
  MATCH (e:Episode {id: id})
  RETURN e
  UNION
  UNWIND $seqs AS seq
  MATCH (e:Episode {seq: seq})
  RETURN e
}
WITH e
WHERE e.principal = $principal
  AND ($project IS NULL OR e.project = $project)
  AND ($as_of IS NULL OR coalesce(e.started_at, e.recorded_at) <= $as_of)
RETURN e {
  .id, .seq, .project, .kind, .title, .text, .outcome, .trust, .started_at
} AS episode
