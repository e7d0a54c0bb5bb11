// Which of the given episode ids exist for this principal.
UNWIND $ids AS id
MATCH (e:Episode {id: id})
USING INDEX SEEK e:Episode(id)
WHERE e.principal = $principal
RETURN e.id AS id
