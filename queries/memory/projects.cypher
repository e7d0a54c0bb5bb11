// The names of one principal's projects: where its episodes happened and its beliefs
// were learned (every origin has its :Project node).
MATCH (p:Project {principal: $principal})
RETURN p.name AS project
ORDER BY project
LIMIT $limit
