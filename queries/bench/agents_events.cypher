// The principal's change log in two numbers: its events and their distinct seqs
// (equal when every seq is held by one event).
MATCH (e:MemoryEvent {principal: $principal})
RETURN count(e) AS events, count(DISTINCT e.seq) AS seqs
