"""Local Neo4j provisioning: find, start and stop the server graphmem uses.

An already-running server named by the settings, else Docker (``docker``), else the
Maven jars route (``local``, with ``java`` and ``probe``); ``manager`` chooses among
them and ``info`` describes the one running. ``backup`` dumps and restores the managed
database, and ``browser`` sets up Neo4j Browser for graphmem. Named so it cannot be
mistaken for ``serve/``, which serves agents over MCP.
"""
