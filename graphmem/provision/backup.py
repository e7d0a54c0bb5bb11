"""Backup and restore of the managed local server, over ``neo4j-admin database dump/load``.

A backup is a directory holding ``neo4j.dump`` (Neo4j's own archive of database
``neo4j``: every principal's memory, the code graph, access tokens, the applied
migrations) and ``graphmem-backup.json``, a manifest with the graphmem version, the
migrations applied, the time and the dump's sha256. Both are 0600 in a 0700 directory.

Database ``system`` (users and their passwords) is not in the backup: a restore keeps
the target server's own ``neo4j`` user and password file, so a backup restores onto a
fresh data directory as well as onto the one it came from.

Community edition dumps and loads offline only: both stop the server, and start it
again (a restore always leaves it running, to check its schema). A restore drops the
FAISS views of this data directory (derived, they rebuild from the restored log); other
data directories on the same server should run ``graphmem reindex``, and running
``graphmem serve`` / ``mcp`` processes be restarted.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlparse

from graphmem import __version__
from graphmem.errors import ConfigError, InvalidInput, MigrationError
from graphmem.provision.local import LocalServer
from graphmem.settings import (
    DEFAULT_USER,
    PRIVATE_FILE_MODE,
    ConnectionSettings,
    make_private_dir,
    read_connection_record,
    write_private_text,
)
from graphmem.store.database import Database
from graphmem.store.migrations import apply_migrations, available_migrations, pending_migrations

BACKUP_FORMAT = 1
MANIFEST_NAME = "graphmem-backup.json"
DUMP_NAME = "neo4j.dump"
_OURS = frozenset({MANIFEST_NAME, DUMP_NAME})
Say = Callable[[str], None]
"""Where narration goes (the CLI prints it on stderr)."""


@dataclass(frozen=True)
class BackupManifest:
    """What ``graphmem-backup.json`` records about a dump."""

    format: int
    graphmem_version: str
    created_at: str
    database: str
    dump_file: str
    dump_bytes: int
    dump_sha256: str
    migrations: list[str]

    def to_dict(self) -> dict[str, object]:
        """Returns a JSON-safe dict."""
        return asdict(self)


@dataclass(frozen=True)
class RestoreReport:
    """What a restore loaded, and the migrations it applied on top (empty: current)."""

    manifest: BackupManifest
    applied_migrations: list[str]


def _not_a_backup(directory: Path, why: str) -> InvalidInput:
    return InvalidInput(
        f"{directory} is not a graphmem backup: {why}. A backup is a directory written "
        "by `graphmem neo4j backup DIR`, holding graphmem-backup.json and neo4j.dump.",
        field="directory",
        rule="graphmem_backup",
    )


def _sha256(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def managed_local_server(data_dir: Path) -> LocalServer:
    """The managed server of ``data_dir``, when it runs from the Maven jars.

    Raises:
        ConfigError: graphmem does not run that server itself (none yet, Docker): the
            message says how to back it up instead.
    """
    record = read_connection_record(data_dir)
    if record is None:
        raise ConfigError(
            f"graphmem manages no Neo4j server in {data_dir}: backup and restore work on "
            "the server `graphmem neo4j start` runs from the Maven jars. For a server of "
            "your own (GRAPHMEM_NEO4J_URI), stop it and use its `neo4j-admin database dump "
            "neo4j` / `database load neo4j`, or `graphmem export` / `import` per principal.",
            field="data_dir",
            rule="managed_local_server",
        )
    if record["route"] != "local":
        raise ConfigError(
            "the managed Neo4j runs in Docker: stop it (`graphmem neo4j stop`) and run "
            "`neo4j-admin database dump neo4j --to-path=/backups` in a container on the "
            "same volume (`docker compose run --rm neo4j neo4j-admin ...`), or use "
            "`graphmem export` / `import` per principal.",
            field="route",
            rule="managed_local_server",
        )
    return LocalServer(data_dir / "neo4j")


def _connect(server: LocalServer) -> Database:
    password = server.password_file.read_text(encoding="utf-8").strip()
    settings = ConnectionSettings(
        uri=server.info().bolt_uri, user=DEFAULT_USER, password=password, source="backup"
    )
    database = Database(settings)
    database.verify()
    return database


def _applied_migrations(server: LocalServer) -> list[str]:
    database = _connect(server)
    try:
        pending = set(pending_migrations(database))
    finally:
        database.close()
    return [migration.id for migration in available_migrations() if migration.id not in pending]


def _ports(server: LocalServer, data_dir: Path) -> tuple[int, int]:
    """The ports the server runs on, else those its connection record names."""
    if server.pid() is not None:
        return server.bolt_port, server.http_port
    record = read_connection_record(data_dir) or {}
    bolt = urlparse(str(record.get("uri", ""))).port
    http = urlparse(str(record.get("http_url", ""))).port
    return bolt or server.bolt_port, http or server.http_port


@contextmanager
def _offline(server: LocalServer, say: Say, *, start_after: bool) -> Iterator[None]:
    """Stops the server for the block; starts it again after (even if the block fails)."""
    if server.pid() is not None:
        say("stopping Neo4j (Community edition dumps and loads offline)...")
        server.stop()
    try:
        yield
    finally:
        if start_after:
            say("starting Neo4j again...")
            server.start()
            say(f"Neo4j started again on {server.info().bolt_uri}")


def check_backup_target(directory: Path) -> None:
    """Checks that ``directory`` is new, empty, or an older graphmem backup.

    The error counts what else is there but names none of it: the directory may be
    anyone's, and the message may land in a log or an agent's context.

    Raises:
        InvalidInput: ``directory`` is a file (rule ``dir``), or holds entries that are
            not a graphmem backup's (rule ``empty_or_backup``).
    """
    if directory.exists() and not directory.is_dir():
        raise InvalidInput(
            f"{directory} is a file: a backup is a directory", field="directory", rule="dir"
        )
    if not directory.is_dir():
        return
    others = sum(1 for entry in directory.iterdir() if entry.name not in _OURS)
    if others:
        entries = "entry" if others == 1 else "entries"
        raise InvalidInput(
            f"{directory} is not empty ({others} {entries} that are not a graphmem backup's): "
            "back up into a new or empty directory, e.g. `graphmem neo4j backup "
            f"{directory / 'graphmem-backup'}`, or over an older graphmem backup",
            field="directory",
            rule="empty_or_backup",
        )


def backup(data_dir: Path, directory: Path, say: Say) -> BackupManifest:
    """Dumps the managed server's database ``neo4j`` into ``directory``.

    Raises:
        ConfigError: graphmem does not run the server itself (see
            :func:`managed_local_server`).
        InvalidInput: ``directory`` holds files that are not a graphmem backup.
        ServerError: The dump, or a stop or start around it, failed.
    """
    server = managed_local_server(data_dir)
    check_backup_target(directory)
    running = server.pid() is not None
    bolt_port, http_port = _ports(server, data_dir)
    server = LocalServer(server.home, bolt_port, http_port)
    if not running:
        say("Neo4j is not running: starting it to read its schema version...")
        server.start()
    migrations = _applied_migrations(server)
    make_private_dir(directory)
    (directory / MANIFEST_NAME).unlink(missing_ok=True)  # no stale manifest over a new dump
    with _offline(server, say, start_after=running):
        say(f"dumping database neo4j to {directory / DUMP_NAME}...")
        server.dump(directory)
    dump = directory / DUMP_NAME
    dump.chmod(PRIVATE_FILE_MODE)
    manifest = BackupManifest(
        format=BACKUP_FORMAT,
        graphmem_version=__version__,
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        database="neo4j",
        dump_file=DUMP_NAME,
        dump_bytes=dump.stat().st_size,
        dump_sha256=_sha256(dump),
        migrations=migrations,
    )
    write_private_text(directory / MANIFEST_NAME, json.dumps(manifest.to_dict(), indent=2) + "\n")
    return manifest


def read_manifest(directory: Path) -> BackupManifest:
    """Reads and checks a backup's manifest and its dump's checksum; touches nothing.

    Raises:
        InvalidInput: ``directory`` is not a graphmem backup, is from an unknown format
            or a newer schema, or its dump does not match its checksum.
    """
    manifest_file = directory / MANIFEST_NAME
    if not manifest_file.is_file():
        raise _not_a_backup(directory, f"it has no {MANIFEST_NAME}")
    try:
        raw = json.loads(manifest_file.read_text(encoding="utf-8"))
        manifest = BackupManifest(**raw)
    except (ValueError, TypeError) as error:
        raise _not_a_backup(directory, f"its {MANIFEST_NAME} is malformed ({error})") from error
    if manifest.format != BACKUP_FORMAT or manifest.dump_file != DUMP_NAME:
        raise _not_a_backup(directory, f"its format {manifest.format!r} is not {BACKUP_FORMAT}")
    dump = directory / DUMP_NAME
    if not dump.is_file():
        raise _not_a_backup(directory, f"{DUMP_NAME} is missing")
    if dump.stat().st_size != manifest.dump_bytes or _sha256(dump) != manifest.dump_sha256:
        raise InvalidInput(
            f"{dump} does not match the checksum in its manifest: the backup is damaged "
            "or was changed; nothing was restored",
            field="directory",
            rule="checksum",
        )
    known = {migration.id for migration in available_migrations()}
    unknown = [m for m in manifest.migrations if m not in known]
    if unknown:
        raise InvalidInput(
            f"the backup was made by graphmem {manifest.graphmem_version}, whose schema has "
            f"migrations this graphmem {__version__} does not know ({', '.join(unknown)}): "
            "restore it with that version or newer",
            field="directory",
            rule="schema_newer",
        )
    return manifest


def restore(data_dir: Path, directory: Path, say: Say) -> RestoreReport:
    """Replaces the managed server's database ``neo4j`` with the backup in ``directory``.

    Checks the backup first; then stops the server, loads the dump, starts the server
    and brings its schema up to this graphmem's migrations.

    Raises:
        ConfigError: graphmem does not run the server itself.
        InvalidInput: ``directory`` is not an intact graphmem backup (nothing touched).
        ServerError: The load, or the stop or start around it, failed.
        MigrationError: The restored schema could not be brought up to date.
    """
    server = managed_local_server(data_dir)
    manifest = read_manifest(directory)
    say(
        f"backup of {manifest.created_at} (graphmem {manifest.graphmem_version}, "
        f"{manifest.dump_bytes} bytes): checksum verified"
    )
    bolt_port, http_port = _ports(server, data_dir)
    server = LocalServer(server.home, bolt_port, http_port)
    with _offline(server, say, start_after=True):
        say(f"loading {directory / DUMP_NAME} into database neo4j (replacing it)...")
        server.load(directory)
        # Views are derived from the event log, which the load just rewound: a view
        # past its end would pair new nodes' seqs with old vectors. They rebuild.
        shutil.rmtree(data_dir / "views", ignore_errors=True)
        say(f"dropped the FAISS views under {data_dir / 'views'}: they rebuild on use")
    database = _connect(server)
    try:
        applied = apply_migrations(database)
        pending = pending_migrations(database)
    finally:
        database.close()
    if pending:
        raise MigrationError(
            f"after the restore, migrations {', '.join(pending)} are still not applied",
            pending=pending,
        )
    if applied:
        say(f"schema brought up to date: applied {', '.join(applied)}")
    return RestoreReport(manifest=manifest, applied_migrations=applied)
