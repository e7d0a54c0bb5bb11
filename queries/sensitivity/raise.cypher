// Raises the principal's episodes and beliefs in $ids to secret (their text holds a
// secret the finder found); a level is never lowered.
UNWIND $ids AS id
CALL (id) {
  MATCH (e:Episode {id: id})
  USING INDEX SEEK e:Episode(id)
  WHERE e.principal = $principal
  RETURN e AS node
  UNION
  MATCH (b:Belief {id: id})
  USING INDEX SEEK b:Belief(id)
  WHERE b.principal = $principal
  RETURN b AS node
}
SET node.sensitivity = 'secret'
