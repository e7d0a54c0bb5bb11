// Creates symbols from their derived properties.
UNWIND $symbols AS props
CREATE (s:Symbol)
SET s = props, s.principal = $principal, s.project = $project
