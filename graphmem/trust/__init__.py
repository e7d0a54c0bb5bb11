"""The read path's trust boundary (docs/data-safety.md): pure checks over memory text.

Nothing here talks to Neo4j. The injection scan runs over text as it is loaded for an
agent; the secret finder runs over text as it is written, to raise its sensitivity.
"""
