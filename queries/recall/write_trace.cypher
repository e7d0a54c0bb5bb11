// Records one recall: what was asked, what was rendered, and operator-only details.
CREATE (t:RecallTrace)
SET t = $trace, t.principal = $principal
RETURN t.id AS id
