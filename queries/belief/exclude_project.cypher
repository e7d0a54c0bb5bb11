// A "not here" correction's effect: one step less portable, and never shown in
// $project again (a negative scope override the recall hard filters honour).
MATCH (b:Belief {id: $id})
WHERE b.principal = $principal
SET b.portability = $portability,
    b.not_here = coalesce(b.not_here, []) + [p IN [$project] WHERE NOT p IN coalesce(b.not_here, [])]
RETURN b.id AS id
