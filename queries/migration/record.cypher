// Records one applied migration.
MERGE (m:Migration {id: $id})
  ON CREATE SET m.name = $name, m.sha256 = $sha256, m.applied_at = $now
