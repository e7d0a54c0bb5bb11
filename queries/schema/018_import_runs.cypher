// An import written in slices keeps an :ImportRun while it is in progress
// (store/transfer.py): one per file and principal, so two processes never start the same
// import twice.
CREATE CONSTRAINT import_run_id IF NOT EXISTS FOR (n:ImportRun) REQUIRE n.id IS UNIQUE;
