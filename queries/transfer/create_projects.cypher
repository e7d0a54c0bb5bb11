// Import: a batch of projects, each belonging to the principal (kept when present).
MATCH (principal:Principal {id: $principal})
UNWIND $rows AS row
MERGE (project:Project {principal: $principal, name: row.name})
  ON CREATE SET project += row.props
MERGE (project)-[:BELONGS_TO]->(principal)
RETURN count(*) AS written
