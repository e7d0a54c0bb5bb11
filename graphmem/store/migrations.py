"""Ordered, append-only schema migrations recorded as ``:Migration`` nodes.

Each ``queries/schema/NNN_name.cypher`` file is applied once, in order, and recorded
with its sha256. Applying again is a no-op; an applied file whose text changed is an
error, because migrations are append-only: add a new file instead.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from neo4j import ManagedTransaction

from graphmem.errors import DatabaseError, MigrationError
from graphmem.store.cypher import queries_dir, split_statements
from graphmem.store.database import Database, run

_FILE_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.cypher$")


@dataclass(frozen=True)
class Migration:
    """One migration file."""

    id: str
    name: str
    path: Path

    @property
    def text(self) -> str:
        """The file's text."""
        return self.path.read_text(encoding="utf-8")

    @property
    def sha256(self) -> str:
        """Checksum of the file's text, recorded when applied."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def available_migrations(directory: Path | None = None) -> list[Migration]:
    """Returns the migration files in order.

    Args:
        directory: Where the files are; graphmem's ``queries/schema`` by default.

    Raises:
        MigrationError: A file is misnamed or a number repeats.
    """
    migrations: list[Migration] = []
    for path in sorted((directory or queries_dir() / "schema").glob("*.cypher")):
        match = _FILE_NAME.match(path.name)
        if match is None:
            raise MigrationError(f"migration file {path.name} is not named NNN_name.cypher")
        migrations.append(Migration(match.group(1), match.group(2), path))
    ids = [m.id for m in migrations]
    if len(set(ids)) != len(ids):
        raise MigrationError(f"migration numbers repeat: {ids}")
    return migrations


def _record(tx: ManagedTransaction, migration: Migration) -> None:
    run(
        tx,
        "migration/record",
        id=migration.id,
        name=migration.name,
        sha256=migration.sha256,
        now=datetime.now(UTC),
    )


def apply_migrations(db: Database, directory: Path | None = None) -> list[str]:
    """Applies every migration not yet recorded in the graph.

    Every statement is idempotent (``IF NOT EXISTS``, ``MERGE``), so clients that
    connect at the same moment may both apply a migration safely; one that loses a
    schema race tries once more.

    Args:
        db: The database.
        directory: Where the migration files are (graphmem's own by default).

    Returns:
        The ids of the migrations applied now (empty when the schema was current).

    Raises:
        MigrationError: An applied migration's file has changed since, or a statement
            failed twice.
    """
    try:
        return _apply(db, directory)
    except DatabaseError:
        try:
            return _apply(db, directory)
        except DatabaseError as error:
            raise MigrationError(f"a schema migration failed: {error.message}") from error


def pending_migrations(db: Database, directory: Path | None = None) -> list[str]:
    """The ids of the migrations not yet applied to this database, in order."""
    applied = {record["id"] for record in db.read("migration/applied")}
    return [m.id for m in available_migrations(directory) if m.id not in applied]


def require_current_schema(db: Database) -> None:
    """Checks that every migration is applied (for clients that do not migrate).

    Raises:
        MigrationError: Some are not; the message says how to apply them.
    """
    pending = pending_migrations(db)
    if pending:
        raise MigrationError(
            f"the database's schema is behind this graphmem (migrations {', '.join(pending)} "
            "are not applied): run `graphmem init`, or connect with migrate=True",
            pending=pending,
        )


def _apply(db: Database, directory: Path | None) -> list[str]:
    applied = {record["id"]: record["sha256"] for record in db.read("migration/applied")}
    newly_applied: list[str] = []
    for migration in available_migrations(directory):
        recorded = applied.get(migration.id)
        if recorded is not None:
            if recorded != migration.sha256:
                raise MigrationError(
                    f"migration {migration.path.name} was edited after it was applied; "
                    "migrations are append-only: restore it and add a new file",
                    migration=migration.id,
                )
            continue
        for statement in split_statements(migration.text):
            db.run_autocommit(statement)
        db.write(partial(_record, migration=migration))
        newly_applied.append(migration.id)
    return newly_applied
