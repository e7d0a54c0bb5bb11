// Formation: rejected candidates are found and pruned by (principal, type) without
// scanning a principal's whole event log.
CREATE INDEX memory_event_principal_type IF NOT EXISTS
FOR (n:MemoryEvent) ON (n.principal, n.type);
