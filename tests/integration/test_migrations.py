"""Migrations: applied once, recorded, append-only; the schema design §3 lists."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from graphmem import MigrationError
from graphmem.store.database import Database
from graphmem.store.migrations import apply_migrations, available_migrations
from tests.integration.conftest import Graph

CONSTRAINTS = {
    "principal_id",
    "project_key",
    "episode_id",
    "belief_id",
    "rejection_id",
    "tombstone_id",
    "memory_event_seq",
    "recall_trace_id",
    "migration_id",
    "clock_id",
    "symbol_key",
    "file_path",
    "episode_idempotency",
    "belief_idempotency",
}
INDEXES = {
    "belief_principal",
    "belief_seq",
    "belief_state",
    "episode_principal",
    "episode_seq",
    "memory_event_principal_seq",
    "belief_principal_subject_seq",
}


def test_second_run_is_a_no_op(database: Database, graph: Graph) -> None:
    apply_migrations(database)
    assert apply_migrations(database) == []
    recorded = graph.query("MATCH (m:Migration) RETURN m.id AS id ORDER BY id")
    assert [r["id"] for r in recorded] == [m.id for m in available_migrations()]


def test_schema_has_the_constraints_and_indexes_of_design_section_3(graph: Graph) -> None:
    constraints = {r["name"] for r in graph.query("SHOW CONSTRAINTS YIELD name RETURN name")}
    assert constraints >= CONSTRAINTS
    indexes = {
        r["name"]: r["type"] for r in graph.query("SHOW INDEXES YIELD name, type RETURN name, type")
    }
    assert set(indexes) >= INDEXES
    # Migration 006's full-text indexes went in 015: nothing reads them.
    assert not {"belief_text", "episode_text", "belief_text_v2", "episode_text_v2"} & set(indexes)
    assert "FULLTEXT" not in indexes.values()
    clock = graph.query("MATCH (c:Clock {id: 'memory'}) RETURN c.seq AS seq")
    assert len(clock) == 1


def test_an_edited_applied_migration_is_refused(database: Database, tmp_path: Path) -> None:
    for migration in available_migrations():
        shutil.copy(migration.path, tmp_path / migration.path.name)
    assert apply_migrations(database, tmp_path) == []
    edited = tmp_path / available_migrations()[0].path.name
    edited.write_text(edited.read_text() + "\n// an edit\n")
    with pytest.raises(MigrationError) as caught:
        apply_migrations(database, tmp_path)
    assert "append-only" in str(caught.value)
