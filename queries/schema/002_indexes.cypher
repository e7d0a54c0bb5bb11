// Range indexes for the hard filters every read applies first, and the seq watermark.
CREATE INDEX belief_principal IF NOT EXISTS FOR (n:Belief) ON (n.principal);
CREATE INDEX belief_seq IF NOT EXISTS FOR (n:Belief) ON (n.seq);
CREATE INDEX belief_state IF NOT EXISTS FOR (n:Belief) ON (n.state);
CREATE INDEX belief_principal_subject IF NOT EXISTS FOR (n:Belief) ON (n.principal, n.subject);
CREATE INDEX episode_principal IF NOT EXISTS FOR (n:Episode) ON (n.principal);
CREATE INDEX episode_seq IF NOT EXISTS FOR (n:Episode) ON (n.seq);
CREATE INDEX memory_event_principal_seq IF NOT EXISTS FOR (n:MemoryEvent) ON (n.principal, n.seq);
CREATE INDEX project_principal IF NOT EXISTS FOR (n:Project) ON (n.principal);
CREATE INDEX symbol_principal IF NOT EXISTS FOR (n:Symbol) ON (n.principal);
CREATE INDEX file_principal IF NOT EXISTS FOR (n:File) ON (n.principal);
CREATE INDEX rejection_principal IF NOT EXISTS FOR (n:Rejection) ON (n.principal);
CREATE INDEX tombstone_principal_sha IF NOT EXISTS FOR (n:Tombstone) ON (n.principal, n.statement_sha256);
CREATE INDEX recall_trace_principal IF NOT EXISTS FOR (n:RecallTrace) ON (n.principal);
