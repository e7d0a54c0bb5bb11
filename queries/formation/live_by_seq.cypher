// Live beliefs of one principal among FAISS hits (creation seqs): what the novelty gate
// may reinforce instead of adding a copy.
UNWIND $seqs AS seq
MATCH (b:Belief {seq: seq})
WHERE b.principal = $principal AND b.superseded_at IS NULL AND b.state <> 'retired'
RETURN b.seq AS seq, b.id AS id, b.type AS type, b.statement AS statement,
       b.subject AS subject
