// Uniqueness of every id, and of the natural keys of projects, files and symbols.
CREATE CONSTRAINT principal_id IF NOT EXISTS FOR (n:Principal) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT project_key IF NOT EXISTS FOR (n:Project) REQUIRE (n.principal, n.name) IS UNIQUE;
CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (n:Episode) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT belief_id IF NOT EXISTS FOR (n:Belief) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT rejection_id IF NOT EXISTS FOR (n:Rejection) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT tombstone_id IF NOT EXISTS FOR (n:Tombstone) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT memory_event_seq IF NOT EXISTS FOR (n:MemoryEvent) REQUIRE n.seq IS UNIQUE;
CREATE CONSTRAINT recall_trace_id IF NOT EXISTS FOR (n:RecallTrace) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT migration_id IF NOT EXISTS FOR (n:Migration) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT clock_id IF NOT EXISTS FOR (n:Clock) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT symbol_key IF NOT EXISTS FOR (n:Symbol) REQUIRE (n.principal, n.project, n.key) IS UNIQUE;
CREATE CONSTRAINT file_path IF NOT EXISTS FOR (n:File) REQUIRE (n.principal, n.project, n.path) IS UNIQUE;
// A retried write with the same idempotency key can never create a second node.
CREATE CONSTRAINT episode_idempotency IF NOT EXISTS FOR (n:Episode) REQUIRE (n.principal, n.idempotency_key) IS UNIQUE;
CREATE CONSTRAINT belief_idempotency IF NOT EXISTS FOR (n:Belief) REQUIRE (n.principal, n.idempotency_key) IS UNIQUE;
