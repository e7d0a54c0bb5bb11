"""Turns pydantic validation failures into :class:`~graphmem.errors.InvalidInput`.

Pattern failures of the known types are told in words (a regex is no message); the
rule and the pattern stay in ``details``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError
from pydantic_core import ErrorDetails

from graphmem.errors import InvalidInput
from graphmem.models import ANCHOR_KEY_PATTERN, COMMIT_PATTERN, ID_PATTERN, NAME_PATTERN

M = TypeVar("M", bound=BaseModel)

PATTERN_WORDS = {
    NAME_PATTERN: (
        "names use letters, digits and . _ : / @ + -, start with a letter or digit, and "
        "have at most 200 characters"
    ),
    ID_PATTERN: "ids are lowercase UUIDs like 0190c6f2-8e4b-7a3d-9c1e-5f2a6b7c8d9e",
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
    return problem["msg"]


def _problem(problem: ErrorDetails) -> dict[str, str]:
    described = {
        "field": ".".join(str(part) for part in problem["loc"]) or "input",
        "rule": problem["type"],
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
