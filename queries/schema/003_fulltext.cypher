// Full-text (Lucene) indexes for the lexical recall arm. Queries against them always
// escape user text and filter on principal before scoring.
CREATE FULLTEXT INDEX belief_text IF NOT EXISTS FOR (n:Belief) ON EACH [n.statement, n.subject];
CREATE FULLTEXT INDEX episode_text IF NOT EXISTS FOR (n:Episode) ON EACH [n.title, n.text];
