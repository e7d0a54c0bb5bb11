// Episodes already written under the given idempotency keys, with the payload
// digest of the write that made each (null on nodes written before digests were kept).
UNWIND $keys AS key
MATCH (e:Episode {principal: $principal, idempotency_key: key})
USING INDEX SEEK e:Episode(principal, idempotency_key)
RETURN key, e.id AS id, e.idempotency_digest AS digest
