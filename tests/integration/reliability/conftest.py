"""The serving tests' fixtures, for the reliability tests that probe the MCP servers."""

from tests.integration.serve.conftest import http_server, work_tree

__all__ = ["http_server", "work_tree"]
