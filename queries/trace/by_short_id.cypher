// The hook injection traces of a principal whose id ends with $short (an injection
// shows its trace by the last 8 characters of its id); at most two, newest first.
MATCH (t:RecallTrace {principal: $principal})
WHERE t.session_id IS NOT NULL AND t.id ENDS WITH $short
RETURN t.id AS id
ORDER BY t.at DESC
LIMIT 2
