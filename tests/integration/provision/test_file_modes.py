"""The data directory is private, views name no principal, and no secret is on argv."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.store.ids import new_id
from tests.integration.provision.conftest import Managed, not_private

runner = CliRunner()


def test_the_password_never_appears_on_a_command_line(managed: Managed) -> None:
    admin_runs = [line for line in managed.command_lines if b"set-initial-password" in line]
    assert admin_runs, "the sampler never saw neo4j-admin set the initial password"
    leaked = [line for line in managed.command_lines if managed.password.encode() in line]
    assert leaked == []


def test_everything_under_the_data_dir_is_private(managed: Managed, tmp_path: Path) -> None:
    principal = f"modes-{new_id()}"
    source = tmp_path / "src"
    (source / "billing").mkdir(parents=True)
    (source / "billing" / "invoice.py").write_text("def total(lines):\n    return sum(lines)\n")
    indexed = runner.invoke(
        app, ["index", str(source), "--project", "billing", "--json"], env=managed.env(principal)
    )
    assert indexed.exit_code == 0, indexed.output
    with managed.client(principal) as memory:
        memory.believe("Invoice totals are summed in cents", project="billing", type="fact")
        assert memory.recall("how are invoice totals computed", project="billing").items
    token = runner.invoke(
        app, ["token", "create", "--principal", principal, "--json"], env=managed.env(principal)
    )
    assert token.exit_code == 0, token.output

    views = sorted((managed.data_dir / "views").rglob("*.*"))
    assert any(path.suffix == ".faiss" for path in views), "the recall wrote no FAISS view"
    assert not_private(managed.data_dir) == []
    naming = [path for path in views if principal.encode() in path.read_bytes()]
    assert naming == [], "a view names the principal in clear"
