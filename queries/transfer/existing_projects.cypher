// Import: which of these project names the principal already has.
MATCH (p:Project {principal: $principal})
WHERE p.name IN $names
RETURN p.name AS name
