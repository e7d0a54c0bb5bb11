"""Every command shown in README.md and docs/*.md runs, the way a reader would run it.

Each doc is one test case: its fenced blocks, in order, in one sandbox (a fresh working
directory with the fixtures of ``tests/data/docs/`` copied in, HOME and the data
directory inside it, the test server's settings, this venv's ``graphmem`` first on PATH,
stdin from /dev/null). Shell variables, functions and the working directory carry from
one block to the next, as in a terminal; memory does too. Before and after a doc, every
principal it names is deleted from the test server.

Fences, by language (any other language, or none, fails the doc):

- ``bash``: run with ``bash -euo pipefail``; passes when it exits 0 (or the directive's
  code) and prints no Python traceback.
- ``python``: run with this interpreter, under the same shell state.
- ``json`` and ``toml``: must parse.
- ``cypher``: must be a statement of ``queries/`` (its lines, comments aside, in order).
- ``text``: diagrams and output samples, not run.

Directives, an HTML comment on the line right above a ``bash`` fence:

- ``<!-- docs-test: exit N -->``: the block must exit N.
- ``<!-- docs-test: server -->``: its last command serves MCP over HTTP until stopped.
  Once its port (``--port``, default 8765) listens, a request without a token must get
  401 and one with a live token an MCP answer; then SIGINT must stop it cleanly.
- ``<!-- docs-test: mcp-stdio -->``: its last command is an MCP server on stdin/stdout;
  the MCP handshake and a ``tools/list`` must get the memory tools back.
- ``<!-- docs-test: setup -->``: runs in the repository root instead of the sandbox
  (README's install command).
- ``<!-- docs-test: ci -->``: must be a command line of ``.ci/run``, which CI runs on every
  push (running the test command here would run this test again).

And on a doc's first line, ``<!-- docs-test: managed-server -->``: the doc runs against a
local Neo4j of its own (no GRAPHMEM_NEO4J_URI; free ports in GRAPHMEM_NEO4J_BOLT_PORT and
GRAPHMEM_NEO4J_HTTP_PORT), which the test stops afterwards, also on failure.

No directive skips a block.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from graphmem.admin import Admin
from graphmem.provision.manager import stop_server
from graphmem.settings import ConnectionSettings, read_local_connection
from graphmem.store.ids import new_id
from tests.integration.docs.markdown import (
    LOCAL_HOSTS,
    REPO,
    Block,
    Doc,
    anchors,
    doc_files,
    links,
    parse,
    principals,
    urls,
)
from tests.integration.docs.sandbox import TRACEBACK, Outcome, Sandbox

DOCS = doc_files()
IDS = [str(path.relative_to(REPO)) for path in DOCS]
README_MAX_LINES = 300


def _admin(settings: ConnectionSettings) -> Admin:
    return Admin(uri=settings.uri, user=settings.user, password=settings.password, migrate=False)


def _delete(settings: ConnectionSettings, names: set[str]) -> None:
    with _admin(settings) as admin:
        for name in sorted(names):
            admin.delete_principal(name)


def _cypher_lines(text: str) -> list[str]:
    lines = (re.sub(r"\s+//.*$|^\s*//.*$", "", line).strip() for line in text.splitlines())
    return [line for line in lines if line]


def _in_queries(block: Block) -> bool:
    wanted = _cypher_lines(block.text)
    for path in (REPO / "queries").rglob("*.cypher"):
        have = _cypher_lines(path.read_text(encoding="utf-8"))
        if any(have[i : i + len(wanted)] == wanted for i in range(len(have))):
            return True
    return False


def _ci_commands() -> list[str]:
    lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


class Runner:
    """Runs one doc's blocks in its sandbox."""

    def __init__(self, sandbox: Sandbox, settings: ConnectionSettings | None) -> None:
        self.sandbox = sandbox
        self.settings = settings
        """The test server, or None for a doc with a server of its own."""

    def _server_settings(self) -> ConnectionSettings:
        if self.settings is not None:
            return self.settings
        local = read_local_connection(self.sandbox.data_dir)
        assert local is not None, "the doc serves before it started its own Neo4j"
        return local

    def check(self, block: Block) -> None:
        if block.language == "json":
            json.loads(block.text)
        elif block.language == "toml":
            tomllib.loads(block.text)
        elif block.language == "cypher":
            assert _in_queries(block), f"{block.where}: not a statement of queries/"
        elif block.language in {"bash", "python"}:
            self._run(block)

    def _run(self, block: Block) -> None:
        directive = block.directive[0] if block.directive else ""
        arguments = block.directive[1:]
        expected = 0
        problems: list[str] = []
        if directive == "exit":
            assert len(arguments) == 1 and arguments[0].isdigit(), f"{block.where}: exit N"
            expected = int(arguments[0])
        else:
            assert not arguments, f"{block.where}: {directive} takes no arguments"
        if directive == "ci":
            command = block.text.strip()
            assert command in _ci_commands(), f"{block.where}: .ci/run does not run {command!r}"
            return
        if directive == "server":
            outcome, problems = self._serve(block)
        elif directive == "mcp-stdio":
            outcome, problems = self.sandbox.mcp_stdio(block)
        elif directive == "setup":
            outcome = self.sandbox.run(block, cwd=REPO)
        else:
            outcome = self.sandbox.run(block)
        self._judge(block, outcome, expected, problems)

    def _serve(self, block: Block) -> tuple[Outcome, list[str]]:
        principal = f"docs-{new_id()}"
        settings = self._server_settings()
        with _admin(settings) as admin:
            token = admin.create_token(principal, "docs-test").secret
        try:
            return self.sandbox.serve(block, token)
        finally:
            _delete(settings, {principal})

    @staticmethod
    def _judge(block: Block, outcome: Outcome, expected: int, problems: list[str]) -> None:
        if TRACEBACK in outcome.stdout + outcome.stderr:
            problems.append("it printed a Python traceback")
        if outcome.code != expected or problems:
            pytest.fail("\n".join([outcome.report(block, expected), *problems]), pytrace=False)


@pytest.fixture
def sandbox_for(
    request: pytest.FixtureRequest,
    neo4j_settings: ConnectionSettings,
    tmp_path: Path,
) -> Iterator[tuple[Doc, Runner]]:
    doc = parse(request.param)
    assert not doc.problems, "\n".join(doc.problems)
    settings = None if doc.managed_server else neo4j_settings
    sandbox = Sandbox.create(tmp_path / "sandbox", settings)
    names = set() if doc.managed_server else principals(doc)
    if names:
        _delete(neo4j_settings, names)
    try:
        yield doc, Runner(sandbox, settings)
    finally:
        print("\n".join(sandbox.log))
        if doc.managed_server:
            stop_server(sandbox.data_dir)
        if names:
            _delete(neo4j_settings, names)


@pytest.mark.parametrize("sandbox_for", DOCS, ids=IDS, indirect=True)
def test_every_block_of_the_doc_works(sandbox_for: tuple[Doc, Runner]) -> None:
    doc, runner = sandbox_for
    for block in doc.blocks:
        runner.check(block)


def test_the_readme_is_short() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES


def test_every_doc_is_in_the_readme_list() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    missing = [
        path.name
        for path in DOCS
        if path.parent.name == "docs" and f"(docs/{path.name})" not in readme
    ]
    assert missing == []


@pytest.mark.parametrize("path", DOCS, ids=IDS)
def test_links_stay_in_the_repository_and_resolve(path: Path) -> None:
    doc = parse(path)
    wrong = []
    for url in urls(doc):
        if urlsplit(url).hostname not in LOCAL_HOSTS:
            wrong.append(f"{url}: leaves the repository (only graphmem's local URLs may appear)")
    for target in links(doc):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            if urlsplit(target).hostname not in LOCAL_HOSTS:
                wrong.append(f"{target}: not a file of the repository")
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.is_relative_to(REPO):
            wrong.append(f"{target}: leaves the repository")
        elif not linked.exists():
            wrong.append(f"{target}: no such file")
        elif anchor and anchor not in anchors(linked):
            wrong.append(f"{target}: no heading #{anchor} in {linked.relative_to(REPO)}")
    for relative in re.findall(r"(?:\.\./)+[\w./-]*", doc.text):
        if not (path.parent / relative).resolve().is_relative_to(REPO):
            wrong.append(f"{relative}: a path that leaves the repository")
    if re.search(r"design\.md|design §", doc.text):
        wrong.append("cites the design document, which is not in the repository")
    assert wrong == []


COMMON_OPTIONS = frozenset({"--principal", "--data-dir", "--json", "--help"})
"""Options docs/reference.md lists once, above its tables."""


def _cli_options() -> dict[str, list[str]]:
    """Every `graphmem` command (`neo4j start` for a group's) and its long options."""
    import typer

    from graphmem.cli import app

    found: dict[str, list[str]] = {}

    def walk(command: object, path: list[str]) -> None:
        commands = getattr(command, "commands", None)
        if commands is not None:
            for name, sub in commands.items():
                walk(sub, [*path, name])
            return
        params = getattr(command, "params", [])
        found[" ".join(path)] = [
            name
            for param in params
            if param.param_type_name == "option"
            for name in [*param.opts, *param.secondary_opts]
            if name.startswith("--") and name not in COMMON_OPTIONS
        ]

    walk(typer.main.get_command(app), [])
    return found


def test_the_reference_lists_every_command_and_option() -> None:
    rows = {}
    for line in (REPO / "docs" / "reference.md").read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| `graphmem ([a-z0-9 -]+)` \|", line)
        if match:
            rows[match.group(1)] = line
    missing = []
    for command, options in _cli_options().items():
        row = rows.get(command)
        if row is None:
            missing.append(f"graphmem {command}")
            continue
        missing += [f"graphmem {command} {o}" for o in options if f"`{o}" not in row]
    assert missing == []
