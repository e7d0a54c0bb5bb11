// Feedback (issue 14): formation hints from repeated misses, and trace retention.
// A hint carries open_key (its subject) only while it is open, so the uniqueness of
// (principal, open_key) allows one open hint per principal and subject, and a MERGE on
// it can never make a second one, however many writers race.
CREATE CONSTRAINT formation_hint_id IF NOT EXISTS FOR (n:FormationHint) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT formation_hint_open IF NOT EXISTS FOR (n:FormationHint) REQUIRE (n.principal, n.open_key) IS UNIQUE;
CREATE INDEX formation_hint_subject IF NOT EXISTS FOR (n:FormationHint) ON (n.principal, n.subject);
CREATE INDEX formation_hint_principal IF NOT EXISTS FOR (n:FormationHint) ON (n.principal);
// Misses are counted per subject: only the traces of missed recalls carry miss_subject.
CREATE INDEX recall_trace_miss IF NOT EXISTS FOR (n:RecallTrace) ON (n.principal, n.miss_subject);
// The retention sweep finds a principal's old traces by when they were recorded.
CREATE INDEX recall_trace_at IF NOT EXISTS FOR (n:RecallTrace) ON (n.principal, n.at);
