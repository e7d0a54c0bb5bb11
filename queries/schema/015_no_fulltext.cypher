// The Neo4j full-text indexes go: since the lexical arm reads each principal's own BM25
// view, no query reads them, and Lucene's per-commit update made a single write take
// about twice as long (bench write, single-write p50: 12.5 ms with them, 6.6 without).
// Nodes written before this keep their principal_key property; nothing reads it.
DROP INDEX belief_text_v2 IF EXISTS;
DROP INDEX episode_text_v2 IF EXISTS;
