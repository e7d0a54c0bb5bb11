"""Serving agents (docs/serving-agents.md): graphmem's tools over MCP, stdio and streamable HTTP.

A thin layer over the client: :mod:`~graphmem.serve.tools` maps each tool to one
client method, :mod:`~graphmem.serve.server` speaks MCP through the official SDK,
:mod:`~graphmem.serve.stdio` and :mod:`~graphmem.serve.http` are the transports (the
HTTP server checks bearer tokens through :class:`graphmem.admin.Admin`).
"""
