// Records an import about to write its first slice, with the block of seqs just
// reserved for it (its base is the seq before the block). `mine` is false when another
// process recorded the same import first (the MERGE waits for it on the constraint).
// $projects: the projects it creates (an undo removes those it left empty).
MATCH (r:Reservation {id: $reservation})
WHERE r.principal = $principal
MERGE (run:ImportRun {id: $key})
  ON CREATE SET run.principal = $principal, run.reservation = $reservation,
                run.base = r.first - 1, run.count = r.count, run.pieces = 0,
                run.projects = $projects
RETURN run.reservation = $reservation AS mine, run.base AS base
