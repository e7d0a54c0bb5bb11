"""Edits of a JSON (JSONC) settings file as text: insert or remove one entry at a time.

Nothing but the entry moves. An entry is appended after the container's last one, in
the indentation that entry has (or compact, in a one-line container); removing it
takes out the same text again, so an insert followed by its removal gives back the
original bytes. The document is parsed afresh before each edit.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from graphmem.install.errors import SettingsFileError
from graphmem.install.jsonc import JsonValue, Node, parse

_INDENTED = re.compile(r"^([ \t]+)[\"\[{\]}]", re.M)
DEFAULT_INDENT = "  "


class JsonDocument:
    """A settings file's text, edited in place.

    Args:
        path: The file (named in errors).
        text: Its text.
        comments: Whether it is JSONC (comments and trailing commas allowed).

    Raises:
        SettingsFileError: The text is not a JSON object.
    """

    def __init__(self, path: Path, text: str, *, comments: bool) -> None:
        self.path = path
        self.text = text
        self.comments = comments
        found = _INDENTED.search(text)
        self.unit = found.group(1) if found else DEFAULT_INDENT
        self.root()

    def root(self) -> Node:
        """The document's top-level object, parsed from the current text."""
        return parse(self.text, self.path, comments=self.comments)

    def find(self, keys: tuple[str, ...]) -> Node | None:
        """The value at ``keys`` (object members, from the root), None when absent.

        Raises:
            SettingsFileError: A value on the way is not an object.
        """
        node = self.root()
        for depth, key in enumerate(keys):
            if node.kind != "object":
                where = ".".join(keys[:depth]) or "the top level"
                raise SettingsFileError(self.path, f"{where} is not a JSON object")
            member = node.member(key)
            if member is None:
                return None
            node = member.value
        return node

    def object_at(self, keys: tuple[str, ...]) -> Node | None:
        """The object at ``keys``, None when absent.

        Raises:
            SettingsFileError: Something else than an object is there.
        """
        node = self.find(keys)
        if node is not None and node.kind != "object":
            raise SettingsFileError(self.path, f"{'.'.join(keys)} is not a JSON object")
        return node

    def ensure_object(self, keys: tuple[str, ...]) -> Node:
        """The object at ``keys``, created (empty) where absent."""
        for depth in range(1, len(keys) + 1):
            if self.object_at(keys[:depth]) is None:
                parent = self.object_at(keys[: depth - 1])
                assert parent is not None  # made on the step before
                self.insert(parent, keys[depth - 1], {})
        found = self.object_at(keys)
        assert found is not None
        return found

    def insert(self, container: Node, key: str | None, value: JsonValue) -> None:
        """Appends ``value`` to an array, or ``"key": value`` to an object.

        Args:
            container: The array or object (from the current text).
            key: The member's key (None for an array element).
            value: What to add.
        """
        text = self.text
        label = "" if key is None else json.dumps(key, ensure_ascii=False) + ": "
        entries = _entries(container)
        if entries and "\n" not in text[container.start : entries[-1][0]]:
            compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
            self.text = _splice(text, entries[-1][1], entries[-1][1], ", " + label + compact)
            return
        if entries:
            indent = _line_indent(text, entries[-1][0])
            piece = ",\n" + indent + label + self._render(value, indent)
            self.text = _splice(text, entries[-1][1], entries[-1][1], piece)
            return
        base = _line_indent(text, container.start)
        indent = base + self.unit
        inner = text[container.start + 1 : container.end - 1]
        piece = "\n" + indent + label + self._render(value, indent)
        if inner == "":
            piece += "\n" + base
        self.text = _splice(text, container.start + 1, container.start + 1, piece)

    def remove(self, container: Node, index: int) -> None:
        """Removes the ``index``-th entry of an array or object.

        The way :meth:`insert` added it goes: with the comma and line break before it.
        """
        text = self.text
        entries = _entries(container)
        start, end = entries[index]
        if len(entries) == 1:
            rest = text[end : container.end - 1]
            rest = re.sub(r"\A\s*,", "", rest)  # a JSONC trailing comma goes with it
            if rest == "\n" + _line_indent(text, container.start):
                rest = ""
            self.text = text[: container.start + 1] + rest + text[container.end - 1 :]
        elif index == len(entries) - 1:
            self.text = _splice(text, entries[index - 1][1], end, "")
        else:
            self.text = _splice(text, start, entries[index + 1][0], "")

    def _render(self, value: JsonValue, indent: str) -> str:
        rendered = json.dumps(value, ensure_ascii=False, indent=self.unit)
        return rendered.replace("\n", "\n" + indent)


def _entries(container: Node) -> list[tuple[int, int]]:
    """(start, end) of each entry of an object (key to value) or array."""
    if container.kind == "object":
        return [(member.start, member.value.end) for member in container.members]
    return [(item.start, item.end) for item in container.items]


def _line_indent(text: str, offset: int) -> str:
    """The whitespace that starts the line holding ``offset``."""
    line_start = text.rfind("\n", 0, offset) + 1
    line = text[line_start:offset]
    return line[: len(line) - len(line.lstrip(" \t"))]


def _splice(text: str, start: int, end: int, piece: str) -> str:
    return text[:start] + piece + text[end:]
