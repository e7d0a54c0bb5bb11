"""The serving tests' fixtures: a work tree, and a `graphmem serve` for doctor's checks."""

from tests.integration.serve.conftest import http_server, work_tree

__all__ = ["http_server", "work_tree"]
