// Formed beliefs an expiry run at $now may change (docs/formation.md#expiry): live ones
// formation made (they carry a policy_version) that are not of user authority, and
// either not stale and last confirmed at or before $stale_before (to demote), or stale
// since at or before $retire_before (to retire). Each branch seeks its own index.
CALL () {
  MATCH (b:Belief)
  USING INDEX SEEK b:Belief(principal, last_confirmed_at)
  WHERE b.principal = $principal AND b.last_confirmed_at <= $stale_before
    AND b.stale_since IS NULL
  RETURN b
  UNION
  MATCH (b:Belief)
  USING INDEX SEEK b:Belief(principal, stale_since)
  WHERE b.principal = $principal AND b.stale_since <= $retire_before
  RETURN b
}
WITH b
WHERE b.policy_version IS NOT NULL AND b.authority <> 'user'
  AND b.superseded_at IS NULL AND b.state <> 'retired'
RETURN b.id AS id, b.last_confirmed_at AS last_confirmed_at, b.stale_since AS stale_since
ORDER BY b.id
