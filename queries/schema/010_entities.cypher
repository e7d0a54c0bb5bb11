// The entity layer (issue 13): one :Entity per principal and normalised name, linked
// (:Episode|Belief)-[:MENTIONS]->(:Entity) at write time. Names are found by
// graphmem's rules in Python (graphmem/entities), which Cypher cannot express, so the
// memory written before this migration is linked by `graphmem reindex`, not here.
CREATE CONSTRAINT entity_name IF NOT EXISTS FOR (n:Entity) REQUIRE (n.principal, n.name) IS UNIQUE;
