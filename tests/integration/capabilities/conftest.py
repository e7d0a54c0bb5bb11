"""Each capability on its own: a Context for a fresh principal, and no GraphMem."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmem.capabilities.context import Context
from graphmem.recall.engine import RecallEngine
from graphmem.settings import ConnectionSettings, resolve_feedback
from graphmem.store.database import Database
from graphmem.store.ids import new_id
from graphmem.vectors.hashed import HashedEmbedder


@pytest.fixture
def context(neo4j_settings: ConnectionSettings, tmp_path: Path) -> Iterator[Context]:
    """What a client's capabilities share, for a fresh principal (hashed embedder)."""
    db = Database(neo4j_settings)
    principal = f"test-{new_id()}"
    embedder = HashedEmbedder()
    feedback = resolve_feedback()
    engine = RecallEngine(db, principal, lambda: embedder, tmp_path / "views", feedback)
    yield Context(db, principal, engine, feedback)
    engine.close()
    db.close()
