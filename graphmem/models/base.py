"""The building blocks of every model: limits, id and name patterns, checked field types.

Every limit lives here, so a bad value is refused before anything reaches the database;
:class:`InputModel` (what writers submit: unknown fields refused) and
:class:`StoredModel` (what graphmem returns) are the two bases.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints
from pydantic_core import PydanticCustomError

from graphmem.limits import (
    COMMIT_PATTERN,
    CONTROL_PATTERN,
    ID_PATTERN,
    MAX_EPISODE_TEXT_CHARS,
    MAX_IDEMPOTENCY_KEY_CHARS,
    MAX_ITEM_CHARS,
    MAX_ITEMS,
    MAX_PATH_CHARS,
    MAX_REASON_CHARS,
    MAX_STATEMENT_CHARS,
    MAX_SUBJECT_CHARS,
    MAX_TITLE_CHARS,
    NAME_PATTERN,
)


def _clean_text(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain NUL bytes")
    if not value.strip():
        raise ValueError("must not be blank")
    return value


_CLEAN = AfterValidator(_clean_text)

_CONTROL = re.compile(CONTROL_PATTERN)


def _no_control(value: str) -> str:
    found = _CONTROL.search(value)
    if found is not None:
        raise PydanticCustomError(
            "control_character",
            "holds the control character U+{code} at character {at}; statements and titles "
            "are text (tabs and line breaks are allowed)",
            {"code": f"{ord(found.group()):04X}", "at": found.start()},
        )
    return value


_TEXT_ONLY = AfterValidator(_no_control)


def _inside_project(value: str) -> str:
    parts = value.replace("\\", "/").split("/")
    if value.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", value) or parts[0] == "~":
        raise PydanticCustomError(
            "relative_path",
            "must be a path relative to the project's root (like src/app.py), not an absolute one",
        )
    if ".." in parts:
        raise PydanticCustomError(
            "relative_path", "must stay inside the project: no '..' parts (like src/app.py)"
        )
    return value


_INSIDE_PROJECT = AfterValidator(_inside_project)


def _limit(max_chars: int) -> StringConstraints:
    return StringConstraints(strict=True, min_length=1, max_length=max_chars)


Statement = Annotated[str, _limit(MAX_STATEMENT_CHARS), _CLEAN, _TEXT_ONLY]


Subject = Annotated[str, _limit(MAX_SUBJECT_CHARS), _CLEAN]


Title = Annotated[str, _limit(MAX_TITLE_CHARS), _CLEAN, _TEXT_ONLY]


EpisodeText = Annotated[str, _limit(MAX_EPISODE_TEXT_CHARS), _CLEAN]


Item = Annotated[str, _limit(MAX_ITEM_CHARS), _CLEAN]


CodePath = Annotated[str, _limit(MAX_PATH_CHARS), _CLEAN]


ProjectPath = Annotated[str, _limit(MAX_PATH_CHARS), _CLEAN, _INSIDE_PROJECT]


Reason = Annotated[str, _limit(MAX_REASON_CHARS), _CLEAN]


IdempotencyKey = Annotated[str, _limit(MAX_IDEMPOTENCY_KEY_CHARS), _CLEAN]


Name = Annotated[str, StringConstraints(strict=True, pattern=NAME_PATTERN)]


Id = Annotated[str, StringConstraints(strict=True, pattern=ID_PATTERN)]


CommitId = Annotated[str, StringConstraints(strict=True, pattern=COMMIT_PATTERN)]


Confidence = Annotated[float, Field(strict=True, ge=0.0, le=1.0, allow_inf_nan=False)]


Items = Annotated[list[Item], Field(max_length=MAX_ITEMS)]


class InputModel(BaseModel):
    """What a writer submits: frozen, and a field it does not know is refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class StoredModel(BaseModel):
    """What graphmem returns: frozen."""

    model_config = ConfigDict(frozen=True)


MAX_QUERY_CHARS = 20_000


QueryText = Annotated[str, _limit(MAX_QUERY_CHARS), _CLEAN]


MAX_TOKEN_NAME_CHARS = 200


TokenName = Annotated[str, _limit(MAX_TOKEN_NAME_CHARS), _CLEAN]
