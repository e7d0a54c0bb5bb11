"""`graphmem neo4j backup|restore` on the managed server: memory comes back as it was."""

from __future__ import annotations

import io
import json
import stat
from pathlib import Path

from typer.testing import CliRunner

from graphmem.admin import Admin
from graphmem.cli import app
from graphmem.demo import DemoResult, run_demo
from graphmem.store.ids import new_id
from tests.integration.provision.conftest import Managed

runner = CliRunner()


def _memory_as_read(managed: Managed, principal: str, demo: DemoResult) -> dict[str, object]:
    """The principal's memory through the client's read APIs, and its export."""
    with managed.client(principal) as memory:
        export = io.StringIO()
        memory.export(export)
        return {
            "beliefs": [
                b.model_dump(mode="json")
                for b in memory.list_beliefs(include_superseded=True, limit=1_000)
            ],
            "retired": [
                b.model_dump(mode="json") for b in memory.list_beliefs(state="retired", limit=1_000)
            ],
            "episodes": [
                memory.get_episode(episode_id).model_dump(mode="json")
                for episode_id in sorted(demo.episodes.values())
            ],
            "events": memory.events(limit=10_000),
            "export": export.getvalue(),
        }


def test_restore_brings_back_the_memory_as_backed_up(managed: Managed, tmp_path: Path) -> None:
    principal = f"backup-{new_id()}"
    with managed.client(principal) as memory:
        demo = run_demo(memory, lambda _: None, tmp_path / "demo")
    before = _memory_as_read(managed, principal, demo)
    assert before["beliefs"] and before["events"]
    backup_dir = tmp_path / "backup"

    backed_up = runner.invoke(
        app, ["neo4j", "backup", str(backup_dir), "--json"], env=managed.env(principal)
    )
    assert backed_up.exit_code == 0, backed_up.output
    manifest = json.loads(backed_up.stdout)["manifest"]
    assert manifest["migrations"] and manifest["dump_bytes"] > 0
    assert "stopping Neo4j" in backed_up.stderr and "started again" in backed_up.stderr
    assert stat.S_IMODE(backup_dir.stat().st_mode) == 0o700
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in backup_dir.iterdir()} == {
        "neo4j.dump": 0o600,
        "graphmem-backup.json": 0o600,
    }

    with Admin(uri=managed.bolt_uri, user="neo4j", password=managed.password) as admin:
        admin.delete_principal(principal)
    with managed.client(principal) as memory:
        assert memory.list_beliefs(include_superseded=True) == []

    restored = runner.invoke(
        app, ["neo4j", "restore", str(backup_dir), "--json"], env=managed.env(principal)
    )
    assert restored.exit_code == 0, restored.output
    assert json.loads(restored.stdout)["applied_migrations"] == []
    assert "checksum verified" in restored.stderr and "started again" in restored.stderr
    assert _memory_as_read(managed, principal, demo) == before


def test_restore_refuses_a_damaged_backup_without_touching_the_server(
    managed: Managed, tmp_path: Path
) -> None:
    pid = managed.server.pid()
    assert pid is not None
    not_a_backup = tmp_path / "photos"
    not_a_backup.mkdir()
    (not_a_backup / "cat.jpg").write_bytes(b"\xff\xd8")
    refused = runner.invoke(
        app, ["neo4j", "restore", str(not_a_backup), "--json"], env=managed.env("anyone")
    )
    assert refused.exit_code == 1
    assert "is not a graphmem backup" in refused.output
    assert managed.server.pid() == pid  # never stopped
