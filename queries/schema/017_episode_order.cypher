// A principal's episodes in seq order, read a page at a time (embedding/unembedded_episodes,
// as belief_principal_seq serves beliefs): without it each page sorted all of them.
CREATE INDEX episode_principal_seq IF NOT EXISTS FOR (n:Episode) ON (n.principal, n.seq);
