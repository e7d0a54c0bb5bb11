"""Serving agents (design §9): graphmem's tools over MCP, stdio and streamable HTTP.

A thin layer over the client: :mod:`~graphmem.serve.tools` maps each tool to one
client method, :mod:`~graphmem.serve.server` speaks MCP through the official SDK,
:mod:`~graphmem.serve.stdio` and :mod:`~graphmem.serve.http` are the transports, and
:mod:`~graphmem.serve.tokens` issues and checks the HTTP server's bearer tokens.
"""
