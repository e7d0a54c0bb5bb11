// Links callers to callees (both in the same file), found by the symbol key
// constraint's index (hinted: see code/link_contains). code/delete_references removed
// the files' old references in this transaction and each pair comes once, so the
// links are created, not merged.
UNWIND $references AS reference
MATCH (caller:Symbol {principal: $principal, project: $project, key: reference[0]})
USING INDEX SEEK caller:Symbol(principal, project, key)
MATCH (callee:Symbol {principal: $principal, project: $project, key: reference[1]})
USING INDEX SEEK callee:Symbol(principal, project, key)
CREATE (caller)-[:REFERENCES]->(callee)
