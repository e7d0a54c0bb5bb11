// Import: a batch of change-log events with their seqs, each ABOUT its belief or
// episode when it has one (the FAISS views catch up from these, as from any write).
UNWIND $rows AS row
CREATE (e:MemoryEvent)
SET e = row.props, e.seq = row.seq, e.principal = $principal
WITH e, row
CALL (e, row) {
  MATCH (b:Belief {id: row.about})
  USING INDEX SEEK b:Belief(id)
  WHERE row.about_kind = 'belief' AND b.principal = $principal
  CREATE (e)-[:ABOUT]->(b)
}
CALL (e, row) {
  MATCH (n:Episode {id: row.about})
  USING INDEX SEEK n:Episode(id)
  WHERE row.about_kind = 'episode' AND n.principal = $principal
  CREATE (e)-[:ABOUT]->(n)
}
RETURN count(*) AS written
