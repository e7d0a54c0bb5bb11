// Deletes the rest of a principal's nodes and the principal itself, in batches (an
// auto-commit query): the second step of deleting a principal, after
// delete_leaves has taken the nodes its hubs linked to, so what is left has
// few relationships to drop.
MATCH (n)
WHERE n.principal = $principal OR (n:Principal AND n.id = $principal)
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 200 ROWS
