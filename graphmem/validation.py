"""Turns pydantic validation failures into :class:`~graphmem.errors.InvalidInput`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic import ValidationError as PydanticValidationError

from graphmem.errors import InvalidInput

M = TypeVar("M", bound=BaseModel)


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
        problems = [
            {
                "field": ".".join(str(part) for part in problem["loc"]) or "input",
                "rule": problem["type"],
                "message": problem["msg"],
            }
            for problem in error.errors(include_url=False, include_input=False)
        ]
        first = problems[0]
        where = f"row {row}: " if row is not None else ""
        raise InvalidInput(
            f"{where}{first['field']}: {first['message']}",
            field=first["field"],
            rule=first["rule"],
            row=row,
            problems=problems,
        ) from None
