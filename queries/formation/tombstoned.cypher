// Which statement digests a principal has forgotten (rule 7: never re-formed).
MATCH (t:Tombstone)
WHERE t.principal = $principal AND t.statement_sha256 IN $digests
RETURN DISTINCT t.statement_sha256 AS digest
