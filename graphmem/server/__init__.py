"""Local Neo4j provisioning: an existing server, Docker, or the Maven jars route."""
