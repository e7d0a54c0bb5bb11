// Revokes one access token; revoking it again keeps the first revocation time.
MATCH (t:AccessToken {id: $id})
SET t.revoked_at = coalesce(t.revoked_at, datetime())
RETURN t {.id, .principal, .name, .created_at, .revoked_at} AS token
