// What hooks injected into each of the given sessions: how many injections, how many
// tokens (traces a hook recorded carry session_id and injected_tokens).
MATCH (t:RecallTrace {principal: $principal})
WHERE t.session_id IN $sessions
RETURN t.session_id AS session_id,
       count(t) AS injections,
       sum(coalesce(t.injected_tokens, 0)) AS tokens
ORDER BY session_id
