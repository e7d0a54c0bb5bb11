// The names of one principal's projects: where its episodes happened and where its
// beliefs were learned.
CALL () {
  MATCH (p:Project {principal: $principal})
  RETURN p.name AS project
  UNION
  MATCH (b:Belief {principal: $principal})
  UNWIND b.origins AS project
  RETURN project
}
RETURN DISTINCT project
ORDER BY project
LIMIT $limit
