// Episodes already written under the given idempotency keys.
UNWIND $keys AS key
MATCH (e:Episode {principal: $principal, idempotency_key: key})
RETURN key, e.id AS id
