"""Files that can hold memory or secrets are 0600, in 0700 directories, whatever the umask.

Each writer runs under umask 022 (the usual) and 000 (the worst): the mode must not
depend on it. A directory the user names (an export's) is left as it was.
"""

from __future__ import annotations

import os
import stat
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem
from graphmem.cli import app
from graphmem.provision.browser.overlay import ARCHIVE, STAMP, install_overlay
from graphmem.store.ids import new_id
from tests.integration.provision.conftest import managed_server, not_private

runner = CliRunner()
# A fake AWS access key id in the documented shape (not a real credential).
KEY = "AKIA" + "QZ7HX2KD4PL9MW3T"
SECRET_NOTE = f"The billing deploy user signs requests with access key {KEY}"


@contextmanager
def _umask(mask: int) -> Iterator[None]:
    previous = os.umask(mask)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.fixture(params=[0o022, 0o000], ids=["umask-022", "umask-000"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    """Runs the test under each umask (restored after)."""
    with _umask(request.param):
        yield request.param


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_an_export_with_secrets_is_0600_and_the_users_directory_is_left_alone(
    umask: int, neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    believed = runner.invoke(
        app, ["believe", SECRET_NOTE, "--project", "billing", "--type", "fact"], env=neo4j_env
    )
    assert believed.exit_code == 0, believed.output
    exports = tmp_path / "exports"
    exports.mkdir()
    exports.chmod(0o755)
    older = exports / "older.jsonl"
    older.write_text("an older export\n", encoding="utf-8")
    older.chmod(0o644)

    for target in (exports / "memory.jsonl", older):
        exported = runner.invoke(
            app, ["export", "--include-secret", "-o", str(target)], env=neo4j_env
        )
        assert exported.exit_code == 0, exported.output
        assert KEY in target.read_text(encoding="utf-8")
        assert _mode(target) == 0o600, f"{target.name} under umask {umask:03o}"
    assert _mode(exports) == 0o755
    assert sorted(path.name for path in exports.iterdir()) == ["memory.jsonl", "older.jsonl"]


def test_views_are_0600_in_0700_directories(
    umask: int, make_memory: Callable[..., GraphMem], tmp_path: Path
) -> None:
    memory = make_memory()  # its data directory, tmp_path / "client-0", is made by graphmem
    memory.believe("Invoice totals are summed in cents", project="billing", type="fact")
    assert memory.recall("how are invoice totals computed", project="billing").items
    data_dir = tmp_path / "client-0"
    suffixes = {path.suffix for path in (data_dir / "views").rglob("*.*")}
    assert {".faiss", ".json"} <= suffixes, suffixes
    assert not_private(data_dir) == []


def test_the_browser_archive_naming_the_principal_is_0600(umask: int, tmp_path: Path) -> None:
    home = tmp_path / "neo4j"
    home.mkdir(mode=0o700)
    jar = tmp_path / "jars" / "neo4j-browser-5.26.0.jar"
    jar.parent.mkdir()
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("browser/index.html", "<html></html>")
    (home / "classpath.txt").write_text(f"{jar}\n", encoding="utf-8")
    home.joinpath("classpath.txt").chmod(0o600)

    install_overlay(home, 7474, f"modes-{new_id()}")
    assert (home / ARCHIVE).is_file() and (home / STAMP).is_file()
    assert not_private(home) == []


def test_a_managed_server_and_its_backup_are_private_under_umask_000(tmp_path: Path) -> None:
    with _umask(0o000), managed_server(tmp_path / "graphmem-data") as managed:
        principal = f"modes-{new_id()}"
        with managed.client(principal) as memory:
            memory.believe(SECRET_NOTE, project="billing", type="fact")
            memory.believe("Invoice totals are summed in cents", project="billing", type="fact")
            assert memory.recall("how are invoice totals computed", project="billing").items
        env = managed.env(principal)
        token = runner.invoke(app, ["token", "create", "--principal", principal], env=env)
        assert token.exit_code == 0, token.output
        backups = tmp_path / "backups"  # created by graphmem, as is the backup in it
        backed_up = runner.invoke(app, ["neo4j", "backup", str(backups / "first")], env=env)
        assert backed_up.exit_code == 0, backed_up.output

        assert sorted(path.name for path in (backups / "first").iterdir()) == [
            "graphmem-backup.json",
            "neo4j.dump",
        ]
        assert not_private(backups) == []
        assert not_private(managed.data_dir) == []
