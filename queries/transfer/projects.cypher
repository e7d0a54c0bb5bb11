// Export: the principal's projects (or the one asked for), by name.
MATCH (p:Project {principal: $principal})
WHERE $project IS NULL OR p.name = $project
RETURN p.name AS name, p {.*} AS props
ORDER BY name
