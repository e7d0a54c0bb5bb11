// Beliefs already written under the given idempotency keys, with the payload
// digest of the write that made each (null on nodes written before digests were kept).
UNWIND $keys AS key
MATCH (b:Belief {principal: $principal, idempotency_key: key})
USING INDEX SEEK b:Belief(principal, idempotency_key)
RETURN key, b.id AS id, b.idempotency_digest AS digest
