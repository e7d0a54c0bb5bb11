// Export: the principal's episodes (of one project, or all) in seq order, each with
// the episode it is PART_OF.
MATCH (e:Episode {principal: $principal})
WHERE $project IS NULL OR e.project = $project
RETURN e.id AS id, e.seq AS seq, e {.*} AS props,
       head([parent IN [(e)-[:PART_OF]->(parent) | parent]
             WHERE parent:Episode AND parent.principal = $principal | parent.id])
         AS parent
ORDER BY seq, id
