"""Checks the client's arguments, raising :class:`~graphmem.errors.InvalidInput`.

:func:`parse` turns pydantic validation failures into that error; pattern failures of
the known types are told in words (a regex is no message), and the rule and pattern
stay in ``details``, and :func:`parse_batch` parses a batch row by row. The ``check_*``
functions check the plain arguments no model holds (an id, a project name, a limit, a
seq).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError
from pydantic_core import ErrorDetails

from graphmem.content import is_name
from graphmem.errors import InvalidInput
from graphmem.limits import CITED_ID_PATTERN
from graphmem.models import (
    ANCHOR_KEY_PATTERN,
    COMMIT_PATTERN,
    ID_PATTERN,
    MAX_BATCH_ROWS,
    MAX_SEQ,
    NAME_PATTERN,
)

M = TypeVar("M", bound=BaseModel)

PATTERN_WORDS = {
    NAME_PATTERN: (
        "names use letters, digits and . _ : / @ + -, start with a letter or digit, and "
        "have at most 200 characters"
    ),
    ID_PATTERN: "ids are lowercase UUIDs like 0190c6f2-8e4b-7a3d-9c1e-5f2a6b7c8d9e",
    CITED_ID_PATTERN: (
        "ids are lowercase UUIDs like 0190c6f2-8e4b-7a3d-9c1e-5f2a6b7c8d9e, or their last "
        "8 characters as an injection shows them (5f2a6b7c8d9e -> 6b7c8d9e)"
    ),
    COMMIT_PATTERN: "commits are 7 to 64 lowercase hexadecimal digits",
    ANCHOR_KEY_PATTERN: (
        "anchor keys look like python:pkg/mod.py::Class.method#method "
        "(language:path::qualified name#kind, as `graphmem index` reports them)"
    ),
}
"""The sentence for each pattern of :mod:`graphmem.models`."""


def problem_message(problem: ErrorDetails) -> str:
    """One pydantic problem in words: the known patterns by name, others as pydantic says."""
    pattern = (problem.get("ctx") or {}).get("pattern")
    if problem["type"] == "string_pattern_mismatch" and pattern in PATTERN_WORDS:
        return f"not valid: {PATTERN_WORDS[pattern]}"
    if problem["type"] == "string_pattern_mismatch":
        return "does not have the required form (see details.pattern)"
    if problem["type"] == "string_unicode":
        return "not valid UTF-8 (undecodable bytes or a lone surrogate)"
    return problem["msg"]


_RULES = {"string_unicode": "utf8"}
"""pydantic's error types that graphmem names otherwise (the rule every entry point uses)."""


def _problem(problem: ErrorDetails) -> dict[str, str]:
    described = {
        "field": ".".join(str(part) for part in problem["loc"]) or "input",
        "rule": _RULES.get(problem["type"], problem["type"]),
        "message": problem_message(problem),
    }
    pattern = (problem.get("ctx") or {}).get("pattern")
    if isinstance(pattern, str):
        described["pattern"] = pattern
    return described


def parse(model: type[M], data: M | Mapping[str, Any], *, row: int | None = None) -> M:
    """Validates ``data`` as ``model``.

    Args:
        model: The pydantic model to build.
        data: An instance (returned as is) or a mapping of its fields.
        row: The row's index when validating a batch, named in the error.

    Raises:
        InvalidInput: Naming the first offending field, its rule, and the row; all
            problems are listed in ``details["problems"]``.
    """
    if isinstance(data, model):
        return data
    try:
        return model.model_validate(data)
    except PydanticValidationError as error:
        problems = [_problem(p) for p in error.errors(include_url=False, include_input=False)]
        first = problems[0]
        where = f"row {row}: " if row is not None else ""
        raise InvalidInput(
            f"{where}{first['field']}: {first['message']}",
            field=first["field"],
            rule=first["rule"],
            row=row,
            pattern=first.get("pattern"),
            problems=problems,
        ) from None


def check_id(value: object, field: str) -> str:
    """Returns ``value`` if it is a graphmem id; ``field`` names it in the error."""
    if not isinstance(value, str) or not re.fullmatch(ID_PATTERN, value):
        raise InvalidInput(
            f"{field}: {value!r} is not a graphmem id: {PATTERN_WORDS[ID_PATTERN]}",
            field=field,
            rule="id",
            pattern=ID_PATTERN,
        )
    return value


def check_project(value: object) -> str:
    """Returns ``value`` if it is a valid project name."""
    if not is_name(value):
        raise InvalidInput(
            f"project: {value!r} is not valid: {PATTERN_WORDS[NAME_PATTERN]}",
            field="project",
            rule="pattern",
            pattern=NAME_PATTERN,
        )
    assert isinstance(value, str)
    return value


def check_limit(limit: object) -> int:
    """Returns ``limit`` if it is an integer from 1 to ``MAX_BATCH_ROWS``."""
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_BATCH_ROWS:
        raise InvalidInput(
            f"limit: must be an integer from 1 to {MAX_BATCH_ROWS}", field="limit", rule="range"
        )
    return limit


def check_since(since: object) -> int:
    """Returns ``since`` if it is a seq (an integer from 0 to ``MAX_SEQ``)."""
    if not isinstance(since, int) or isinstance(since, bool) or not 0 <= since <= MAX_SEQ:
        raise InvalidInput(
            f"since: must be a seq, an integer from 0 to {MAX_SEQ}", field="since", rule="range"
        )
    return since


def parse_batch(model: type[M], items: Iterable[M | Mapping[str, Any]], field: str) -> list[M]:
    """Validates a batch of at most ``MAX_BATCH_ROWS`` rows, each as ``model``.

    Args:
        model: The pydantic model of a row.
        items: The rows: instances or mappings of their fields.
        field: The argument that holds the batch, named when it is too large.

    Raises:
        InvalidInput: Too many rows (rule ``max_rows``), or a row breaks a rule
            (``details`` name its ``row``, as :func:`parse` does).
    """
    rows = list(items)
    if len(rows) > MAX_BATCH_ROWS:
        raise InvalidInput(
            f"{field}: a batch holds at most {MAX_BATCH_ROWS} rows, got {len(rows)}; split it",
            field=field,
            rule="max_rows",
        )
    return [parse(model, row, row=index) for index, row in enumerate(rows)]
