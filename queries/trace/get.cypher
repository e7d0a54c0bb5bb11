// One recall trace of this principal.
MATCH (t:RecallTrace {id: $id})
WHERE t.principal = $principal
RETURN t {.*} AS trace
