// A principal's corrections, replayed by every formation run (rule 6), oldest first.
MATCH (r:Rejection)
WHERE r.principal = $principal
RETURN r.kind AS kind, r.subject AS subject, r.statement AS statement, r.type AS type,
       r.project AS project, r.replacement AS replacement
ORDER BY r.at, r.id
