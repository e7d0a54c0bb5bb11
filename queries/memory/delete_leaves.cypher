// Deletes a principal's nodes that few others link to, in batches (an auto-commit
// query): the first of the two steps of deleting a principal. Beliefs, episodes,
// events, traces and the like go here; the hubs stay for delete_remaining: projects,
// entities, files and symbols, which thousands of those may link to, so they lose
// those relationships here with the nodes at the other ends. Nothing is sorted or
// buffered: ordering every node by its degree held them all in one transaction's
// memory, which a 1M-belief principal (2.2M nodes) overran (1 GiB, `bench scale`), and
// a filter on the degree makes Neo4j buffer every row too (deleting changes degrees).
// Each batch removes whole nodes: a delete cut short leaves no node without its
// relationships.
MATCH (n)
WHERE n.principal = $principal AND NOT (n:Project OR n:Entity OR n:File OR n:Symbol)
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 2000 ROWS
