// Removes up to $limit of one baseline run's bare nodes; repeated until none is left.
MATCH (n:BenchBare {run: $run})
WITH n LIMIT $limit
DELETE n
RETURN count(*) AS deleted
