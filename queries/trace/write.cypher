// Records a batch of recalls: what was asked, what was rendered, and operator-only
// details (one node per recall).
UNWIND $traces AS trace
CREATE (t:RecallTrace)
SET t = trace, t.principal = $principal
