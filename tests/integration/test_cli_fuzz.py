"""Generated CLI input never ends in a traceback: a documented exit code and words.

Each example runs one command in-process (CliRunner) against the test server.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from graphmem.cli import app

EXIT_CODES = {0, 1, 2, 3, 4, 5, 6, 7, 9, 10}
"""Success, GraphMemError causes (graphmem/errors.py) and 2 for a usage error."""

FUZZ = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

runner = CliRunner()

integers = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, 2**63 - 1, 2**63, 10**23]),
).map(str)
words = st.text(max_size=40)


def _check(env: dict[str, str], args: list[str], stdin: str | bytes | None = None) -> None:
    result = runner.invoke(app, args, env=env, input=stdin)
    assert result.exit_code in EXIT_CODES, (args, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        repr(result.exception),
    )
    assert "Traceback" not in result.output


@FUZZ
@given(command=st.sampled_from(["events --since", "events --limit", "beliefs --limit"]), n=integers)
def test_integer_options(neo4j_env: dict[str, str], command: str, n: str) -> None:
    _check(neo4j_env, [*command.split(), n])


@FUZZ
@given(since=st.one_of(integers, words, st.from_regex(r"\A[0-9]{1,9}[mhdw]\Z")))
def test_changes_since(neo4j_env: dict[str, str], since: str) -> None:
    _check(neo4j_env, ["changes", "--since", since])


@FUZZ
@given(node_id=words)
def test_show_any_id(neo4j_env: dict[str, str], node_id: str) -> None:
    _check(neo4j_env, ["show", "--", node_id])


@FUZZ
@given(k=integers, query=words)
def test_recall_any_k(neo4j_env: dict[str, str], k: str, query: str) -> None:
    _check(neo4j_env, ["recall", "--k", k, "--", query])


@FUZZ
@given(statement=words, project=words)
def test_believe_any_text(neo4j_env: dict[str, str], statement: str, project: str) -> None:
    _check(neo4j_env, ["believe", "--project", project, "--type", "fact", "--", statement])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=20,
)


huge_integers = st.integers(min_value=20, max_value=20_000).map(lambda n: "9" * n)
"""Integers past 64 bits and past Python's 4,300-digit conversion limit."""


def _nested(depth: int, leaf: str) -> str:
    return '{"a":' * depth + leaf + "}" * depth


json_documents = st.one_of(
    words,
    json_values.map(json.dumps),
    st.integers(min_value=1, max_value=200_000).map(lambda n: "[" * n),
    st.integers(min_value=1, max_value=200_000).map(lambda n: '{"a":' * n),
    st.tuples(st.integers(min_value=1, max_value=3_000), huge_integers).map(lambda t: _nested(*t)),
    huge_integers.map(
        lambda n: json.dumps({"project": "p", "title": "t", "kind": "task"})[:-1] + f', "n": {n}}}'
    ),
    st.binary(max_size=200),
)
"""What a command that reads JSON may be given: text, JSON, bytes, depth and huge numbers."""

export_lines = st.one_of(
    json_documents,
    json_documents.map(lambda line: f'{{"format":"graphmem-export","version":1}}\n{line}'),
)
"""An import's input: a document alone, or after a header line."""


READS_JSON = [("remember", json_documents), ("import", export_lines)]
"""Every command that reads JSON, and what it may be given."""


@settings(FUZZ, max_examples=100)
@given(data=st.data(), from_file=st.booleans())
def test_every_command_that_reads_json(
    neo4j_env: dict[str, str], tmp_path: Path, data: st.DataObject, from_file: bool
) -> None:
    command, documents = data.draw(st.sampled_from(READS_JSON))
    document = data.draw(documents)
    if from_file:
        _check(neo4j_env, [command, str(_written(tmp_path, document))])
    else:
        _check(neo4j_env, [command, "-"], document)


def _written(directory: Path, document: str | bytes) -> Path:
    path = directory / "input.json"
    path.write_bytes(
        document if isinstance(document, bytes) else document.encode("utf-8", "surrogatepass")
    )
    return path
