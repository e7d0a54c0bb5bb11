// Links callers to callees (both in the same file).
UNWIND $references AS reference
MATCH (caller:Symbol {principal: $principal, project: $project, key: reference[0]})
MATCH (callee:Symbol {principal: $principal, project: $project, key: reference[1]})
MERGE (caller)-[:REFERENCES]->(callee)
