// Records a citation on a trace (user fields: every item cited so far, and when) and
// restarts the decay of the beliefs in $refresh: cited_seq becomes $seq, never lower
// than it was. Confidence is never touched.
MATCH (t:RecallTrace {id: $id})
WHERE t.principal = $principal
SET t.cited_ids = $cited, t.cited_at = $now
WITH t
CALL () {
  UNWIND $refresh AS belief_id
  MATCH (b:Belief {id: belief_id})
  USING INDEX SEEK b:Belief(id)
  WHERE b.principal = $principal
  SET b.cited_seq = CASE WHEN coalesce(b.cited_seq, 0) > $seq THEN b.cited_seq ELSE $seq END
  RETURN collect(b.id) AS refreshed
}
RETURN refreshed
