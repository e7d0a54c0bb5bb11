// An unspecified correction's effect: flagged and down-weighted in recall, never retired.
MATCH (b:Belief {id: $id})
WHERE b.principal = $principal
SET b.disputed = true
RETURN b.id AS id
