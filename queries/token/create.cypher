// Records a new access token by its sha256 (the token itself is never stored).
CREATE (t:AccessToken {
  id: $id, principal: $principal, name: $name, sha256: $sha256, created_at: datetime()
})
RETURN t {.id, .principal, .name, .created_at, .revoked_at} AS token
