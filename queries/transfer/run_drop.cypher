// Forgets an import's run: it finished (its last slice claimed the block), or what it
// wrote was undone.
MATCH (run:ImportRun {id: $key})
WHERE run.principal = $principal
DELETE run
