// Beliefs already written under the given idempotency keys.
UNWIND $keys AS key
MATCH (b:Belief {principal: $principal, idempotency_key: key})
USING INDEX SEEK b:Belief(principal, idempotency_key)
RETURN key, b.id AS id
