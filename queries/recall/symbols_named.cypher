// Symbol keys of one project whose name or qualified name is one of $names.
UNWIND $names AS name
MATCH (s:Symbol {principal: $principal, project: $project})
WHERE s.name = name OR s.qualname = name
RETURN DISTINCT s.key AS key
