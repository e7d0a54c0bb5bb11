"""One input-limits policy at every entry point: words and a typed error, never a traceback.

Issue 33's second and sixth defects: a 5,000-digit integer and 100,000 levels of
nesting ended in raw tracebacks from the CLI and the Python client, a binary stream
could not be imported, control characters were stored in statements, episode paths
could escape the project, and bytes that are not UTF-8 were refused by the CLI but
stored as U+FFFD over stdio. Each case here goes through the real entry point against
the real database.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem, InvalidInput
from graphmem.cli import app

runner = CliRunner()


def _cli_error(env: dict[str, str], args: list[str], stdin: bytes | str | None) -> dict[str, Any]:
    """Runs a CLI command that must fail with exit 1; returns its ``--json`` error."""
    result = runner.invoke(app, [args[0], "--json", *args[1:]], env=env, input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    error: dict[str, Any] = json.loads(result.stderr)["error"]
    assert error["type"] == "InvalidInput"
    return error


def _episode(**fields: Any) -> dict[str, Any]:
    return {"project": "shop", "title": "Fixed the build", "kind": "task", **fields}


def test_remember_refuses_a_5000_digit_integer(neo4j_env: dict[str, str]) -> None:
    document = json.dumps(_episode()).replace('"kind"', '"n": ' + "9" * 5_000 + ', "kind"')
    error = _cli_error(neo4j_env, ["remember", "-"], document)
    assert (error["field"], error["rule"]) == ("FILE.n", "integer_size")


def test_import_refuses_a_line_nested_100000_deep(neo4j_env: dict[str, str]) -> None:
    error = _cli_error(neo4j_env, ["import", "-"], "[" * 100_000 + "\n")
    assert (error["line"], error["rule"]) == (1, "depth")


def test_import_memory_refuses_a_line_nested_100000_deep(memory: GraphMem) -> None:
    with pytest.raises(InvalidInput) as refused:
        memory.import_memory(io.StringIO("[" * 100_000 + "\n"))
    assert refused.value.details["rule"] == "depth"


def _exported(memory: GraphMem) -> str:
    memory.remember(_episode(observations=["the lock file was stale"]))
    out = io.StringIO()
    memory.export(out)
    return out.getvalue()


def test_import_memory_reads_a_binary_stream(
    memory: GraphMem, make_memory: Any, neo4j_env: dict[str, str]
) -> None:
    exported = _exported(memory)
    other: GraphMem = make_memory()
    summary = other.import_memory(
        io.BytesIO(exported.encode("utf-8")), as_principal=other.principal
    )
    assert summary.records["episode"] == 1


def test_import_memory_names_a_line_that_is_not_utf8(memory: GraphMem, make_memory: Any) -> None:
    lines = _exported(memory).encode("utf-8").split(b"\n")
    number = next(n for n, line in enumerate(lines, start=1) if b"stale" in line)
    lines[number - 1] = lines[number - 1].replace(b"stale", b"st\xffale")
    other: GraphMem = make_memory()
    with pytest.raises(InvalidInput) as refused:
        other.import_memory(io.BytesIO(b"\n".join(lines)), as_principal=other.principal)
    assert refused.value.details["rule"] == "utf8"
    assert refused.value.details["line"] == number


@pytest.mark.parametrize("text", ["bell\x07 rang", "rub\x7fout", "escape \x1b[31mred", "c1 \x85"])
def test_a_statement_with_a_control_character_is_refused(
    neo4j_env: dict[str, str], text: str
) -> None:
    args = ["believe", "--project", "shop", "--type", "fact", "--", text]
    error = _cli_error(neo4j_env, args, None)
    assert (error["field"], error["rule"]) == ("statement", "control_character")


def test_a_title_with_a_control_character_is_refused(memory: GraphMem) -> None:
    with pytest.raises(InvalidInput) as refused:
        memory.remember(_episode(title="ok\x01"))
    assert (refused.value.field, refused.value.rule) == ("title", "control_character")


def test_tabs_and_line_breaks_stay_allowed(memory: GraphMem) -> None:
    belief = memory.believe("first line\n\tsecond line\r\n", type="fact", project="shop")
    assert memory.get_belief(belief).statement == "first line\n\tsecond line\r\n"


@pytest.mark.parametrize(
    "path", ["../../../etc/shadow", "/abs/path", "src/../../out", "C:/Windows", "~/.ssh/id_rsa"]
)
def test_an_episode_path_must_stay_inside_the_project(memory: GraphMem, path: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        memory.remember(_episode(paths=["src/app.py", path]))
    assert (refused.value.field, refused.value.rule) == ("paths.1", "relative_path")


def test_invalid_utf8_is_refused_by_the_cli_naming_the_field(neo4j_env: dict[str, str]) -> None:
    document = json.dumps(_episode()).encode("utf-8").replace(b"Fixed", b"Fix\xffed")
    error = _cli_error(neo4j_env, ["remember", "-"], document)
    assert (error["field"], error["rule"]) == ("FILE.title", "utf8")


def test_a_lone_surrogate_is_refused_by_the_client_naming_the_field(memory: GraphMem) -> None:
    with pytest.raises(InvalidInput) as refused:
        memory.believe("half a pair \ud800", type="fact", project="shop")
    assert (refused.value.field, refused.value.rule) == ("statement", "utf8")
