// Every access token (of one principal when $principal is given), oldest first.
MATCH (t:AccessToken)
WHERE $principal IS NULL OR t.principal = $principal
RETURN t {.id, .principal, .name, .created_at, .revoked_at} AS token
ORDER BY t.id
