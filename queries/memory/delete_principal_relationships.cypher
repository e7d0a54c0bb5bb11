// Deletes one principal's relationships in batches, before its nodes (an auto-commit
// query). A node many others link to (an entity every statement mentions, a project)
// would otherwise take all its relationships into one inner transaction of
// memory/delete_principal and exceed the server's transaction memory. Each
// relationship is found once, from its start node.
MATCH (n)-[r]->()
WHERE n.principal = $principal OR (n:Principal AND n.id = $principal)
CALL (r) { DELETE r } IN TRANSACTIONS OF 5000 ROWS
