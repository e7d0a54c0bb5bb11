// Episodes already written under the given idempotency keys.
UNWIND $keys AS key
MATCH (e:Episode {principal: $principal, idempotency_key: key})
USING INDEX SEEK e:Episode(principal, idempotency_key)
RETURN key, e.id AS id
