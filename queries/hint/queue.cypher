// Queues formation hints from the misses one batch of recall traces recorded (design
// §11). For each missed subject ($subjects: subject, query, count, id): an open hint
// whose time ran out is closed first (state expired); then the principal's misses on
// it since $since, and after the subject's last consumed hint, are counted, and at
// $threshold or more one hint is opened. MERGE on the open key, unique per principal
// (migration 011), keeps that to one open hint whatever writers race; a hint already
// open adds this batch's misses to its count.
UNWIND $subjects AS row
OPTIONAL MATCH (stale:FormationHint {principal: $principal, open_key: row.subject})
WHERE stale.expires_at <= $now
SET stale.state = 'expired'
REMOVE stale.open_key
WITH row
CALL (row) {
  OPTIONAL MATCH (done:FormationHint {principal: $principal, subject: row.subject})
  WHERE done.consumed_at IS NOT NULL
  RETURN max(done.consumed_at) AS consumed_at
}
CALL (row, consumed_at) {
  MATCH (t:RecallTrace {principal: $principal, miss_subject: row.subject})
  WHERE t.at >= $since AND (consumed_at IS NULL OR t.at > consumed_at)
  RETURN count(t) AS misses, min(t.at) AS first_at, max(t.at) AS last_at
}
WITH row, misses, first_at, last_at
WHERE misses >= $threshold
MERGE (h:FormationHint {principal: $principal, open_key: row.subject})
  ON CREATE SET
    h.id = row.id, h.subject = row.subject, h.state = 'open', h.created_at = $now,
    h.expires_at = $expires_at, h.first_at = first_at, h.misses = misses
  ON MATCH SET h.misses = h.misses + row.count
SET h.last_at = last_at, h.query = row.query
RETURN h.id AS id
