// The principal a live (unrevoked) token stands for, found by the token's sha256.
MATCH (t:AccessToken {sha256: $sha256})
WHERE t.revoked_at IS NULL
RETURN t.principal AS principal, t.id AS id
