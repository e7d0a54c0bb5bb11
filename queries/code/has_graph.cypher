// Whether a project has any indexed file.
MATCH (f:File {principal: $principal, project: $project})
RETURN count(f) > 0 AS indexed
LIMIT 1
