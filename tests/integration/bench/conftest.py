"""Benchmarks open their own scratch clients: point them at the test server."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.settings import ConnectionSettings


@pytest.fixture
def bench_env(
    neo4j_settings: ConnectionSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Sets the connection and a private data directory; returns that directory."""
    monkeypatch.setenv("GRAPHMEM_NEO4J_URI", neo4j_settings.uri)
    monkeypatch.setenv("GRAPHMEM_NEO4J_PASSWORD", neo4j_settings.password)
    monkeypatch.setenv("GRAPHMEM_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"
