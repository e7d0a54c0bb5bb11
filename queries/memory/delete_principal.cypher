// Deletes every node of one principal, in batches (an auto-commit query).
MATCH (n)
WHERE n.principal = $principal OR (n:Principal AND n.id = $principal)
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS
