// Overview: the principal and every project of its memory
// Start here. Each project BELONGS_TO the principal; the other queries open one of them.
MATCH (me:Principal {id: $principal})
OPTIONAL MATCH (project:Project {principal: $principal})-[owns:BELONGS_TO]->(me)
RETURN me, owns, project
