"""Backup checks that need no server: which route may back up, and what is a backup."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from graphmem.errors import ConfigError, InvalidInput
from graphmem.provision.backup import (
    BACKUP_FORMAT,
    DUMP_NAME,
    MANIFEST_NAME,
    check_backup_target,
    managed_local_server,
    read_manifest,
)
from graphmem.store.migrations import available_migrations


def _backup(directory: Path, dump: bytes = b"dump bytes", **changes: object) -> Path:
    directory.mkdir()
    (directory / DUMP_NAME).write_bytes(dump)
    manifest = {
        "format": BACKUP_FORMAT,
        "graphmem_version": "0.1.0",
        "created_at": "2026-12-01T12:00:00+00:00",
        "database": "neo4j",
        "dump_file": DUMP_NAME,
        "dump_bytes": len(dump),
        "dump_sha256": hashlib.sha256(dump).hexdigest(),
        "migrations": [m.id for m in available_migrations()],
        **changes,
    }
    (directory / MANIFEST_NAME).write_text(json.dumps(manifest))
    return directory


def test_an_intact_backup_reads_back(tmp_path: Path) -> None:
    manifest = read_manifest(_backup(tmp_path / "b"))
    assert manifest.dump_bytes == len(b"dump bytes")


def test_a_directory_without_a_manifest_is_not_a_backup(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="is not a graphmem backup") as error:
        read_manifest(tmp_path)
    assert error.value.details["rule"] == "graphmem_backup"


def test_a_malformed_manifest_is_refused(tmp_path: Path) -> None:
    directory = _backup(tmp_path / "b")
    (directory / MANIFEST_NAME).write_text('{"format": 1}')
    with pytest.raises(InvalidInput, match="malformed"):
        read_manifest(directory)


def test_a_changed_dump_fails_its_checksum(tmp_path: Path) -> None:
    directory = _backup(tmp_path / "b")
    (directory / DUMP_NAME).write_bytes(b"dump bytez")
    with pytest.raises(InvalidInput, match="checksum") as error:
        read_manifest(directory)
    assert error.value.details["rule"] == "checksum"


def test_a_backup_from_a_newer_schema_is_refused(tmp_path: Path) -> None:
    directory = _backup(tmp_path / "b", migrations=["999_from_the_future"])
    with pytest.raises(InvalidInput, match="does not know") as error:
        read_manifest(directory)
    assert error.value.details["rule"] == "schema_newer"


def test_only_the_managed_jars_route_backs_up(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="manages no Neo4j server"):
        managed_local_server(tmp_path)
    record = tmp_path / "neo4j" / "connection.json"
    record.parent.mkdir()
    fields = {"uri": "bolt://127.0.0.1:7687", "http_url": None, "user": "neo4j"}
    record.write_text(json.dumps({**fields, "route": "docker", "password_file": "p"}))
    with pytest.raises(ConfigError, match="runs in Docker"):
        managed_local_server(tmp_path)


def test_a_backup_goes_into_a_new_empty_or_backup_directory(tmp_path: Path) -> None:
    check_backup_target(tmp_path / "new")
    check_backup_target(tmp_path)
    check_backup_target(_backup(tmp_path / "older"))
    (tmp_path / "file").write_text("")
    with pytest.raises(InvalidInput) as caught:
        check_backup_target(tmp_path / "file")
    assert caught.value.rule == "dir"


def test_a_non_empty_directory_is_refused_without_listing_it(tmp_path: Path) -> None:
    directory = _backup(tmp_path / "home")
    for name in ("id_rsa", "notes-about-acme.txt", "projects"):
        (directory / name).touch()
    with pytest.raises(InvalidInput) as caught:
        check_backup_target(directory)
    message = str(caught.value)
    assert (caught.value.field, caught.value.rule) == ("directory", "empty_or_backup")
    assert "is not empty (3 entries" in message and "new or empty directory" in message
    assert not any(name in message for name in ("id_rsa", "acme", "projects", DUMP_NAME))
