// Deletes every node of one principal, in batches (an auto-commit query). The nodes
// with fewest relationships go first: by the time a node many others link to comes
// (an entity every statement mentions, a project), its relationships have gone with
// those others, so no batch outgrows the server's transaction memory. Each batch
// removes whole nodes: a delete cut short leaves no node without its relationships.
MATCH (n)
WHERE n.principal = $principal OR (n:Principal AND n.id = $principal)
WITH n ORDER BY COUNT { (n)--() }, elementId(n)
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS
