"""One TOML table appended to (and removed from) a file as text: Codex's MCP server.

The table is appended at the end, after a blank line, under a marker comment that says
who wrote it; removing it takes out exactly that text, so the file's other bytes never
change. Standard library only (``tomllib`` checks the file and the result).
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from graphmem.install.errors import SettingsFileError
from graphmem.install.jsonc import JsonValue

MARK = "# graphmem's MCP server (`graphmem uninstall codex` removes this table)"
"""The comment line above the table graphmem writes."""
_MARK_NO_NEWLINE = MARK[:-1] + "; the line before it had no line break)"
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_AT_LINE = re.compile(r"at line (\d+), column (\d+)")


def load(path: Path, text: str) -> dict[str, object]:
    """The TOML document in ``text``.

    Raises:
        SettingsFileError: It is not valid TOML (the error names the line).
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = _AT_LINE.search(str(error))
        line = int(found.group(1)) if found else None
        column = int(found.group(2)) if found else None
        reason = str(error).split(" (at ")[0]
        raise SettingsFileError(
            path, f"not valid TOML: {reason}", line=line, column=column
        ) from None


def table(path: Path, text: str, keys: tuple[str, ...]) -> object:
    """The value at ``keys`` in the document, None when absent."""
    node: object = load(path, text)
    for key in keys:
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def append_table(text: str, keys: tuple[str, ...], values: dict[str, JsonValue]) -> str:
    """``text`` with ``[keys]`` holding ``values`` appended under :data:`MARK`."""
    header = "[" + ".".join(_key(key) for key in keys) + "]"
    lines = [f"{_key(key)} = {_value(value)}" for key, value in values.items()]
    if not text:
        return "\n".join([MARK, header, *lines]) + "\n"
    if text.endswith("\n"):
        return text + "\n" + "\n".join([MARK, header, *lines]) + "\n"
    return text + "\n\n" + "\n".join([_MARK_NO_NEWLINE, header, *lines]) + "\n"


def remove_table(text: str, keys: tuple[str, ...]) -> str | None:
    """``text`` without the table :func:`append_table` wrote, None when it holds none."""
    header = "[" + ".".join(_key(key) for key in keys) + "]"
    lines = text.splitlines(keepends=True)
    for index in range(len(lines) - 1):
        mark = lines[index].rstrip("\r\n")
        if mark not in (MARK, _MARK_NO_NEWLINE) or lines[index + 1].strip() != header:
            continue
        end = index + 2
        while end < len(lines) and not lines[end].lstrip().startswith("["):
            end += 1
        before = "".join(lines[:index])
        after = "".join(lines[end:])
        if before.endswith("\n\n"):
            before = before[:-1]
        if mark == _MARK_NO_NEWLINE and before.endswith("\n") and not after:
            before = before[:-1]
        return before + after
    return None


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def _value(value: JsonValue) -> str:
    """A TOML value: strings as basic strings, lists as arrays, dicts as inline tables."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        raise ValueError("TOML has no null")
    return json.dumps(value, ensure_ascii=False)
