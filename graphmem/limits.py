r"""The one input-limits policy: what any JSON graphmem reads may hold.

Every entry point that reads JSON (the CLI's ``FILE`` and ``-``, ``import``, the MCP
server over stdio and HTTP, and agent hosts' hook events) decodes and parses it here,
so they all refuse the same inputs with the same :class:`~graphmem.errors.InvalidInput`:

- bytes are decoded as UTF-8; bytes that are not UTF-8, and JSON escapes of lone
  surrogates (``"\ud800"``), are refused, naming the field that holds them (rule
  ``utf8``);
- a line or document is at most :data:`MAX_LINE_BYTES` (rule ``size``);
- a string is at most :data:`MAX_FIELD_BYTES` of UTF-8 (rule ``field_size``);
- an integer has at most :data:`MAX_INTEGER_DIGITS` digits (rule ``integer_size``):
  Neo4j stores 64-bit integers, and Python refuses to convert more than 4,300 digits;
- arrays and objects nest at most :data:`MAX_DEPTH` deep (rule ``depth``);
- ``NaN`` and ``Infinity`` are not JSON (rule ``json``).

The rules on what a field means (control characters in statements and titles, paths
that stay inside the project) are the models' (:mod:`graphmem.models.base`), so the
Python client, which takes no JSON, is held to them too; the field limits and patterns
they use are at the end of this module. Standard library only: the hook command reads
its input here on an agent host's hot path.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from graphmem.errors import InvalidInput

MAX_LINE_BYTES = 64 * 1024 * 1024
"""The largest JSON document or line read (a full batch of maximum-size episodes fits)."""

MAX_FIELD_BYTES = 1024 * 1024
"""The largest string in a JSON input, in UTF-8 bytes (an episode's text is 100,000
characters at most, which is 400,000 bytes at most)."""

MAX_INTEGER_DIGITS = 19
"""The most digits an integer may have: 2**63 - 1, Neo4j's largest, has 19."""

MAX_DEPTH = 32
"""How deep arrays and objects may nest (an episode batch in an MCP request is 6 deep)."""


class _LongInteger:
    """Stands in for an integer with too many digits until the walk names its field."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _integer(text: str) -> int | _LongInteger:
    digits = len(text.lstrip("-"))
    return _LongInteger(digits) if digits > MAX_INTEGER_DIGITS else int(text)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def decode(data: bytes) -> str:
    """``data`` as text: undecodable bytes are kept as lone surrogates for :func:`check`.

    So a file, a line on stdin and a hook payload that are not UTF-8 are refused by
    :func:`check` naming the field that holds the bad bytes, as a JSON escape of a lone
    surrogate is.
    """
    return data.decode("utf-8", "surrogateescape")


def loads(document: str | bytes, field: str) -> Any:
    """Parses one JSON document or line, holding it to the policy.

    Args:
        document: The JSON text, or its bytes (decoded by :func:`decode`).
        field: What holds the document (``FILE``, ``line``, ``message``...), named in
            errors about the document as a whole; a field inside it is named by path
            (``FILE.episodes.0.title``).

    Returns:
        The parsed value; every integer in it has at most :data:`MAX_INTEGER_DIGITS`
        digits and every string is valid Unicode.

    Raises:
        InvalidInput: The document breaks a rule of this module (``details``: field,
            rule).
    """
    value = parse(document, field)
    check(value, field)
    return value


def parse(document: str | bytes, field: str) -> Any:
    """Parses JSON as :func:`loads` does, but leaves the value unchecked.

    For a reader that must answer a breach inside the value (an MCP request's id is
    readable even when its arguments nest too deeply): call :func:`check` next, and
    use nothing else of the value before it passes.

    Raises:
        InvalidInput: The document is too large, not JSON, or nests past Python's own
            recursion limit.
    """
    data = document if isinstance(document, bytes) else document.encode("utf-8", "surrogatepass")
    if len(data) > MAX_LINE_BYTES:
        raise InvalidInput(
            f"{field}: the JSON is larger than {MAX_LINE_BYTES} bytes; split it",
            field=field,
            rule="size",
        )
    text = decode(document) if isinstance(document, bytes) else document
    try:
        return json.loads(text, parse_int=_integer, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise InvalidInput(
            f"{field}: not valid JSON ({error.msg} at line {error.lineno} column {error.colno})",
            field=field,
            rule="json",
        ) from None
    except ValueError as error:  # NaN or Infinity
        raise InvalidInput(f"{field}: {error}", field=field, rule="json") from None
    except RecursionError:
        raise InvalidInput(
            f"{field}: the JSON nests more than {MAX_DEPTH} levels deep", field=field, rule="depth"
        ) from None


def check(value: Any, field: str) -> None:
    """Holds a parsed JSON value to the policy, without recursion.

    Raises:
        InvalidInput: The first breach found, naming its field by path.
    """
    for path, depth, item in _walk(value, field):
        if depth > MAX_DEPTH and isinstance(item, dict | list):
            where = _nesting_field(path)
            raise InvalidInput(
                f"{where}: nests more than {MAX_DEPTH} levels deep", field=where, rule="depth"
            )
        if isinstance(item, _LongInteger):
            raise InvalidInput(
                f"{path}: an integer of {item.digits} digits; at most {MAX_INTEGER_DIGITS}",
                field=path,
                rule="integer_size",
            )
        if isinstance(item, str):
            check_text(item, path)


def check_text(text: str, field: str) -> None:
    """Refuses text that is not valid Unicode, or longer than :data:`MAX_FIELD_BYTES`.

    Raises:
        InvalidInput: Rule ``utf8`` or ``field_size``, naming ``field``.
    """
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as error:
        raise InvalidInput(
            f"{field}: not valid UTF-8 (undecodable bytes or a lone surrogate escape at "
            f"character {error.start})",
            field=field,
            rule="utf8",
        ) from None
    if size > MAX_FIELD_BYTES:
        raise InvalidInput(
            f"{field}: a string of {size} bytes; at most {MAX_FIELD_BYTES}",
            field=field,
            rule="field_size",
        )


def _nesting_field(path: str) -> str:
    """The field that holds too deep a nesting (``a.b.0.0.0`` is ``a.b``), cut to 200."""
    parts = path.split(".")
    while len(parts) > 1 and parts[-1].isdigit():
        parts.pop()
    named = ".".join(parts)
    return named if len(named) <= 200 else named[:200] + "..."


def _walk(value: Any, field: str) -> Iterator[tuple[str, int, Any]]:
    """Every value in ``value`` with its path and depth, keys included, depth first.

    The outermost value is at depth 1 and what it holds at depth 2; :func:`check`
    counts the depth of arrays and objects only.
    """
    stack: list[tuple[str, int, Any]] = [(field, 1, value)]
    while stack:
        path, depth, item = stack.pop()
        yield path, depth, item
        if isinstance(item, dict):
            for key, child in reversed(item.items()):
                yield f"{path} (a key)", depth + 1, key
                stack.append((f"{path}.{key}", depth + 1, child))
        elif isinstance(item, list):
            stack.extend(
                (f"{path}.{index}", depth + 1, child)
                for index, child in reversed(list(enumerate(item)))
            )


# --- Field limits and patterns (the models hold fields to these) ----------------------

MAX_STATEMENT_CHARS = 4_000

MAX_SUBJECT_CHARS = 256

MAX_TITLE_CHARS = 500

MAX_EPISODE_TEXT_CHARS = 100_000

MAX_ITEM_CHARS = 4_000

MAX_ITEMS = 200

MAX_PATH_CHARS = 1_024

MAX_REASON_CHARS = 1_000

MAX_IDEMPOTENCY_KEY_CHARS = 200

MAX_BATCH_ROWS = 10_000
"""The most rows one batch write, listing or log page holds."""

MAX_SEQ = 2**63 - 1
"""The largest seq: the largest integer Neo4j stores."""

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$"

ID_PATTERN = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
SHORT_ID_PATTERN = r"^[0-9a-f]{8}$"
"""An id's last 8 characters, as a hook's injection shows its trace and items."""
CITED_ID_PATTERN = r"^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{8})$"
"""What ``cite`` takes: a whole id, or its short form."""

COMMIT_PATTERN = r"^[0-9a-f]{7,64}$"

ANCHOR_KEY_PATTERN = r"^[a-z0-9_+-]+:[^:]+(:[^:]+)*::[^#]+#[a-z]+(~[0-9]+)?$"

CONTROL_PATTERN = r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
"""Control characters other than tab, line feed and carriage return (C0, DEL and C1)."""
