// The write bench's baseline: the same rows as bare nodes, one CREATE each, no
// clock, provenance, entities, events or index beyond the label's own.
UNWIND $rows AS row
CREATE (n:BenchBare)
SET n = row, n.run = $run
