// Migrations already applied, with the checksum each was applied with.
MATCH (m:Migration)
RETURN m.id AS id, m.sha256 AS sha256
ORDER BY m.id
