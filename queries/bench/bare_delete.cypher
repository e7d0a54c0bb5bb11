// Removes one baseline run's bare nodes, in batches (an auto-commit query).
MATCH (n:BenchBare {run: $run})
CALL (n) { DELETE n } IN TRANSACTIONS OF 10000 ROWS
