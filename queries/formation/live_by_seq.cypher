// Live beliefs of one principal among FAISS hits (creation seqs): what the novelty gate
// may reinforce instead of adding a copy.
UNWIND $seqs AS seq
MATCH (b:Belief {principal: $principal, seq: seq})
USING INDEX SEEK b:Belief(principal, seq)
WHERE b.superseded_at IS NULL AND b.state <> 'retired'
RETURN b.seq AS seq, b.id AS id, b.type AS type, b.statement AS statement,
       b.subject AS subject, b.origins AS origins
