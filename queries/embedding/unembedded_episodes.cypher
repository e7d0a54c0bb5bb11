// A page of the principal's episodes, in seq order after $after, with no stored vectors
// of $model: what `graphmem reembed` embeds next (title, then text: what a view embeds).
MATCH (n:Episode {principal: $principal})
USING INDEX SEEK n:Episode(principal, seq)
WHERE n.seq > $after AND NOT EXISTS { (n)-[:EMBEDDED_AS]->(:Embedding {model: $model}) }
RETURN n.id AS id, n.seq AS seq, n.title AS title, n.text AS text
ORDER BY n.principal, n.seq
LIMIT $limit
