// Two-tier retention (design §11): up to $limit of the principal's traces recorded
// before $cutoff lose their operator fields (how the answer was ranked) and keep their
// user fields (what was asked, rendered and cited); operator_expired_at says when.
MATCH (t:RecallTrace)
WHERE t.principal = $principal AND t.at < $cutoff AND t.operator_expired_at IS NULL
WITH t
LIMIT $limit
REMOVE t.operator_arm_ranks, t.operator_latency_ms, t.operator_policy_version, t.operator_view_lag
SET t.operator_expired_at = $now
RETURN count(t) AS swept
