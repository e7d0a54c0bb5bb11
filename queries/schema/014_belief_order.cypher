// A snapshot wants the principal's newest live beliefs (session start, MCP). With seq
// in an index beside the principal, they are read newest first in index order and
// the scan stops at the pool's size: at 105k beliefs it read and filtered every one
// (618k db hits) to keep 2,000.
CREATE INDEX belief_principal_seq IF NOT EXISTS FOR (n:Belief) ON (n.principal, n.seq);
