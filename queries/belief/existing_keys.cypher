// Beliefs already written under the given idempotency keys.
UNWIND $keys AS key
MATCH (b:Belief {principal: $principal, idempotency_key: key})
RETURN key, b.id AS id
