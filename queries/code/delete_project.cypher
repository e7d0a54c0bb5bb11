// Deletes a project's whole code graph (a rebuild); memory nodes are untouched.
MATCH (n:File|Symbol)
WHERE n.principal = $principal AND n.project = $project
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
