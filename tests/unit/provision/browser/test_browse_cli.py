"""`graphmem browse` without a database: links, and the errors that need none."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.provision.info import ServerInfo, write_connection_record

runner = CliRunner()


def _browse(data_dir: Path, *args: str) -> tuple[int, str, str]:
    env = {"GRAPHMEM_DATA_DIR": str(data_dir), "GRAPHMEM_PRINCIPAL": "alice"}
    result = runner.invoke(app, ["browse", *args], env=env)
    return result.exit_code, result.stdout, result.stderr


def _link(data_dir: Path, *args: str) -> dict[str, Any]:
    """The link `browse --json` prints (it must succeed)."""
    code, out, _ = _browse(data_dir, *args, "--json")
    assert code == 0
    link: dict[str, Any] = json.loads(out)
    return link


def _record(data_dir: Path) -> None:
    info = ServerInfo(
        route="local",
        bolt_uri="bolt://127.0.0.1:7687",
        browser_url="http://127.0.0.1:7474/browser/",
        password_file=data_dir / "neo4j" / "password",
    )
    write_connection_record(data_dir, info)


def test_without_a_managed_server_it_says_how_to_start_one(tmp_path: Path) -> None:
    code, _, err = _browse(tmp_path)
    assert code == 7
    assert "graphmem neo4j start" in err


def test_the_guide_link_sets_the_principal(tmp_path: Path) -> None:
    _record(tmp_path)
    link = _link(tmp_path)
    assert link["url"].startswith("http://127.0.0.1:7474/browser/?cmd=edit&arg=")
    assert link["command"] == ':param principal => "alice"'
    assert link["query"] is None
    code, out, _ = _browse(tmp_path)
    assert code == 0 and out.splitlines()[0] == link["url"]


def test_a_query_link_sets_its_parameters_and_names_its_slide(tmp_path: Path) -> None:
    _record(tmp_path)
    link = _link(tmp_path, "--query", "project", "--project", "billing-api")
    assert link["parameters"] == {"principal": "alice", "project": "billing-api"}
    assert link["command"] == ':params {"principal": "alice", "project": "billing-api"}'
    assert link["guide_slide"] == 3 and link["cypher"].startswith("// A project's memory")


def test_a_mentions_link_sets_the_name(tmp_path: Path) -> None:
    _record(tmp_path)
    link = _link(tmp_path, "--query", "mentions", "--name", "FIN-212")
    assert link["parameters"] == {"principal": "alice", "name": "FIN-212"}
    assert link["cypher"].startswith("// Everything that mentions a name")
    code, _, err = _browse(tmp_path, "--query", "mentions")
    assert code == 1 and "--name" in err


def test_errors_name_the_field(tmp_path: Path) -> None:
    _record(tmp_path)
    code, _, err = _browse(tmp_path, "--query", "nope", "--json")
    assert code == 1
    error = json.loads(err)["error"]
    assert error["field"] == "query" and "overview" in error["valid"]
    code, _, err = _browse(tmp_path, "--query", "subject")
    assert code == 1 and "--subject" in err
    code, _, err = _browse(tmp_path, "--query", "belief")
    assert code == 1 and "ID" in err
    code, _, err = _browse(tmp_path, "not-an-id")
    assert code == 1 and "not a graphmem id" in err
