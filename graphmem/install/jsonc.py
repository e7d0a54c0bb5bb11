"""JSON (and JSONC: comments, trailing commas) read with where each value is in the text.

The settings editor changes a file by splicing text at these offsets, so every byte it
does not mean to change stays as it was. Standard library only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NoReturn, TypeAlias

from graphmem.install.errors import SettingsFileError

JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
"""A value as :func:`json.loads` gives it."""

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_LITERALS: dict[str, JsonValue] = {"true": True, "false": False, "null": None}


@dataclass
class Node:
    """One value of the document and where it is.

    Attributes:
        kind: ``object``, ``array`` or ``scalar``.
        start: Offset of its first character.
        end: Offset just past its last character.
        value: The value itself.
        members: An object's members, in the file's order.
        items: An array's elements, in the file's order.
    """

    kind: Literal["object", "array", "scalar"]
    start: int
    end: int
    value: JsonValue
    members: list[Member] = field(default_factory=list)
    items: list[Node] = field(default_factory=list)

    def member(self, key: str) -> Member | None:
        """The object's last member named ``key`` (the one JSON readers keep), or None."""
        found = [member for member in self.members if member.key == key]
        return found[-1] if found else None


@dataclass
class Member:
    """One ``"key": value`` of an object.

    Attributes:
        key: The key.
        start: Offset of the key's opening quote.
        value: The value.
    """

    key: str
    start: int
    value: Node


def parse(text: str, path: Path, *, comments: bool) -> Node:
    """The document in ``text``, which must be one JSON object.

    Args:
        text: The file's text.
        path: The file (named in errors).
        comments: Whether ``//`` and ``/* */`` comments and trailing commas are allowed
            (JSONC, as Gemini CLI reads its settings).

    Returns:
        The top-level object.

    Raises:
        SettingsFileError: It is not valid JSON (JSONC), or not an object; the error names
            the line.
    """
    parser = _Parser(text, path, comments)
    parser.skip()
    if parser.pos >= len(text):
        raise SettingsFileError(path, "the file is empty, not a JSON object", line=1, column=1)
    root = parser.value()
    parser.skip()
    if parser.pos < len(text):
        parser.fail("unexpected text after the JSON value")
    if root.kind != "object":
        raise SettingsFileError(path, "the file holds JSON, but not an object", line=1, column=1)
    return root


class _Parser:
    def __init__(self, text: str, path: Path, comments: bool) -> None:
        self.text = text
        self.path = path
        self.comments = comments
        self.pos = 1 if text.startswith("\ufeff") else 0

    def fail(self, reason: str, at: int | None = None) -> NoReturn:
        where = self.pos if at is None else at
        line = self.text.count("\n", 0, where) + 1
        column = where - (self.text.rfind("\n", 0, where) + 1) + 1
        kind = "JSONC" if self.comments else "JSON"
        raise SettingsFileError(self.path, f"not valid {kind}: {reason}", line=line, column=column)

    def skip(self) -> None:
        """Moves past whitespace (and, in JSONC, comments)."""
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char in " \t\r\n":
                self.pos += 1
            elif self.comments and text.startswith("//", self.pos):
                newline = text.find("\n", self.pos)
                self.pos = len(text) if newline < 0 else newline
            elif self.comments and text.startswith("/*", self.pos):
                close = text.find("*/", self.pos + 2)
                if close < 0:
                    self.fail("a /* comment is never closed")
                self.pos = close + 2
            else:
                return

    def value(self) -> Node:
        if self.pos >= len(self.text):
            self.fail("the text ends where a value should be")
        char = self.text[self.pos]
        if char == "{":
            return self.object()
        if char == "[":
            return self.array()
        if char == '"':
            start = self.pos
            return Node("scalar", start, self.pos, self.string())
        return self.scalar()

    def string(self) -> str:
        start = self.pos
        end = start + 1
        text = self.text
        while True:
            if end >= len(text):
                self.fail("a string is never closed", start)
            char = text[end]
            if char == "\\":
                end += 2
            elif char == '"':
                break
            else:
                end += 1
        self.pos = end + 1
        try:
            decoded = json.loads(text[start : end + 1])
        except json.JSONDecodeError as error:
            self.fail(f"a string is malformed ({error.msg})", start)
        return str(decoded)

    def scalar(self) -> Node:
        start = self.pos
        for word, literal in _LITERALS.items():
            if self.text.startswith(word, start):
                self.pos = start + len(word)
                return Node("scalar", start, self.pos, literal)
        match = _NUMBER.match(self.text, start)
        if match is None:
            self.fail(f"unexpected character {self.text[start]!r}")
        self.pos = match.end()
        number: JsonValue = json.loads(match.group())
        return Node("scalar", start, self.pos, number)

    def object(self) -> Node:
        node = Node("object", self.pos, self.pos, {})
        values: dict[str, JsonValue] = {}

        def member() -> None:
            if self.pos >= len(self.text) or self.text[self.pos] != '"':
                self.fail("an object key (a double-quoted string) is expected")
            key_start = self.pos
            key = self.string()
            self.skip()
            self._expect(":", "a ':' after an object key")
            self.skip()
            value = self.value()
            node.members.append(Member(key, key_start, value))
            values[key] = value.value

        self._sequence("}", "an object member", member)
        node.end = self.pos
        node.value = values
        return node

    def array(self) -> Node:
        node = Node("array", self.pos, self.pos, [])
        self._sequence("]", "an array element", lambda: node.items.append(self.value()))
        node.end = self.pos
        node.value = [item.value for item in node.items]
        return node

    def _sequence(self, close: str, what: str, entry: Callable[[], None]) -> None:
        """Reads comma-separated entries up to and past ``close``."""
        self.pos += 1
        first = True
        while True:
            self.skip()
            if self._close(close):
                return
            if not first:
                self._expect(",", f"a ',' or {close!r} after {what}")
                self.skip()
                if self.comments and self._close(close):
                    return
            entry()
            first = False

    def _close(self, bracket: str) -> bool:
        """Consumes ``bracket`` when it is next."""
        if self.pos >= len(self.text):
            self.fail(f"the text ends before the closing {bracket!r}")
        if self.text[self.pos] == bracket:
            self.pos += 1
            return True
        return False

    def _expect(self, char: str, what: str) -> None:
        if self.pos >= len(self.text) or self.text[self.pos] != char:
            self.fail(f"{what} is expected")
        self.pos += 1
