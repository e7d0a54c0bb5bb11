"""Neo4j access: the driver, the .cypher loader, migrations and the memory writes."""
