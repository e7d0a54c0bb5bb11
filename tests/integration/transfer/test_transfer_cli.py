"""`graphmem export` and `graphmem import`: files, stdin/stdout, --json and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from graphmem.cli import app
from graphmem.store.ids import new_id

runner = CliRunner()


def _run(env: dict[str, str], *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=env, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_export_to_a_file_and_import_it_as_another_principal(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    code, _, _ = _run(
        neo4j_env, "believe", "Deploys happen on Thursday", "--project", "web", "--type", "fact"
    )
    assert code == 0
    exported = tmp_path / "memory.jsonl"

    code, out, _ = _run(neo4j_env, "export", "-o", str(exported), "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["records"]["belief"] == 1 and summary["lines"] == 4
    assert json.loads(exported.read_text().splitlines()[0])["format"] == "graphmem-export"

    code, stdout_copy, _ = _run(neo4j_env, "export")
    assert code == 0 and stdout_copy == exported.read_text()

    other = f"test-{new_id()}"
    code, out, _ = _run(neo4j_env, "import", str(exported), "--as-principal", other, "--json")
    assert code == 0
    imported = json.loads(out)
    assert imported["principal"] == other and imported["records"]["belief"] == 1
    assert imported["already_present"] is False

    code, out, _ = _run(
        neo4j_env, "import", "-", "--as-principal", other, stdin=exported.read_text()
    )
    assert code == 0 and "nothing written" in out

    code, out, _ = _run(neo4j_env, "beliefs", "--project", "web", "--principal", other)
    assert code == 0 and "Deploys happen on Thursday" in out


def test_import_of_a_bad_file_exits_1_naming_the_line(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "graphmem-export", "version": 9}\n')

    code, _, err = _run(neo4j_env, "import", str(bad), "--json")

    assert code == 1
    error = json.loads(err)["error"]
    assert error["type"] == "InvalidInput"
    assert error["line"] == 1 and error["field"] == "version"

    code, _, err = _run(neo4j_env, "import", str(tmp_path / "missing.jsonl"))
    assert code == 1 and "cannot read" in err
