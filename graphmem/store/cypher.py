"""Loads the Cypher statements in ``queries/``, once each.

A query is named by its path under ``queries/`` without the suffix, e.g.
``"belief/create"``. Statements are executed with parameters only; nothing is ever
formatted into their text.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from graphmem._resources import data_path
from graphmem.errors import ConfigError


def queries_dir() -> Path:
    """Returns the directory holding graphmem's ``.cypher`` files."""
    return data_path("queries")


@cache
def cypher(name: str) -> str:
    """Returns the text of the query ``name`` (cached for the life of the process).

    Raises:
        ConfigError: No such query file exists.
    """
    path = queries_dir() / f"{name}.cypher"
    if not path.is_file():
        raise ConfigError(f"graphmem query {name!r} is missing ({path})", field="query")
    return path.read_text(encoding="utf-8")


def split_statements(text: str) -> list[str]:
    """Splits a migration file into its statements (``;`` at the end of a line).

    ``//`` comment lines are dropped; each statement is returned without its ``;``.
    """
    statements: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.strip().startswith("//"):
            continue
        current.append(line)
        if line.rstrip().endswith(";"):
            statement = "\n".join(current).strip().removesuffix(";").strip()
            if statement:
                statements.append(statement)
            current = []
    tail = "\n".join(current).strip()
    if tail:
        statements.append(tail)
    return statements
