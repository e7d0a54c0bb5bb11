// One trace of this principal, write-locked until the transaction ends (two citations
// of it then never lose each other's ids).
MATCH (t:RecallTrace {id: $id})
WHERE t.principal = $principal
SET t.citing = true
REMOVE t.citing
RETURN t {.*} AS trace
