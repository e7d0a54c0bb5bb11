// Export: the principal's tombstones (content digests of forgotten beliefs).
MATCH (t:Tombstone {principal: $principal})
RETURN t.id AS id, t {.*} AS props
ORDER BY id
