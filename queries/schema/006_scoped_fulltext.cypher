// Full-text indexes v2: english analysis (stop words, stemming) and a per-principal
// token, so a lexical query is restricted to one principal inside Lucene (the Cypher
// filter on principal still applies after it). principal_key is derived from the
// principal: 'pk_' + the lowercased name with . : / @ + - replaced by _.
DROP INDEX belief_text IF EXISTS;
DROP INDEX episode_text IF EXISTS;
MATCH (n:Belief|Episode)
WHERE n.principal_key IS NULL
SET n.principal_key = 'pk_' + replace(replace(replace(replace(replace(replace(
  toLower(n.principal), '.', '_'), ':', '_'), '/', '_'), '@', '_'), '+', '_'), '-', '_');
CREATE FULLTEXT INDEX belief_text_v2 IF NOT EXISTS
FOR (n:Belief) ON EACH [n.statement, n.subject, n.principal_key]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE FULLTEXT INDEX episode_text_v2 IF NOT EXISTS
FOR (n:Episode) ON EACH [n.title, n.text, n.principal_key]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
