"""The serving tests' fixtures, for the capture tests that post hook events over HTTP."""

from tests.integration.serve.conftest import http_server

__all__ = ["http_server"]
