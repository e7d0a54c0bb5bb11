// The changes a derived view has not seen: one principal's events after a seq, with
// the text to embed for each created node, a belief's subject and when an episode
// happened (a deletion carries the gone node's seq).
MATCH (e:MemoryEvent {principal: $principal})
WHERE e.seq > $since AND e.type IN $types
OPTIONAL MATCH (e)-[:ABOUT]->(n)
RETURN e.seq AS seq, e.type AS type, coalesce(n.seq, e.node_seq) AS node_seq,
       CASE WHEN n:Belief THEN n.statement
            ELSE reduce(text = coalesce(n.title, ''), part IN [coalesce(n.text, '')] |
                        CASE WHEN part = '' THEN text ELSE text + '\n' + part END)
       END AS text,
       CASE WHEN n:Belief THEN n.subject END AS subject,
       CASE WHEN n:Episode THEN coalesce(n.started_at, n.recorded_at) END AS happened_at
ORDER BY e.seq
LIMIT $limit
