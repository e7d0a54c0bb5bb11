// Subjects (compared case-insensitively) that live beliefs of one principal share
// across two or more projects, the most widespread first.
MATCH (b:Belief)-[:LEARNED_IN]->(p:Project)
WHERE b.principal = $principal AND b.subject IS NOT NULL
  AND b.state <> 'retired' AND b.superseded_at IS NULL
WITH toLower(b.subject) AS key, min(b.subject) AS subject,
     collect(DISTINCT p.name) AS projects, count(DISTINCT b) AS beliefs
WHERE size(projects) >= 2
RETURN subject, projects, beliefs
ORDER BY size(projects) DESC, beliefs DESC, key
LIMIT $limit
