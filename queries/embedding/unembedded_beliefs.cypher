// A page of the principal's beliefs, in seq order after $after, with no stored vectors
// of $model: what `graphmem reembed` embeds next (the text is what a view embeds).
MATCH (n:Belief {principal: $principal})
USING INDEX SEEK n:Belief(principal, seq)
WHERE n.seq > $after AND NOT EXISTS { (n)-[:EMBEDDED_AS]->(:Embedding {model: $model}) }
RETURN n.id AS id, n.seq AS seq, n.statement AS text
ORDER BY n.principal, n.seq
LIMIT $limit
