// Undoes part of an import that did not finish: up to $limit of its events, those in
// its reserved block (seqs after $base, $count of them).
MATCH (e:MemoryEvent {principal: $principal})
USING INDEX SEEK e:MemoryEvent(principal, seq)
WHERE e.seq > $base AND e.seq <= $base + $count
WITH e LIMIT $limit
DETACH DELETE e
RETURN count(*) AS undone
