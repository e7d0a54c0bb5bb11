"""The entity layer's pure logic: which names a memory text mentions (no database)."""
