"""Which code symbols a session's edits changed, read from the work tree at consolidation.

A hook event carries an edit's file and its old and new text, not the function it
landed in. At consolidation the file is read as the session left it, parsed with
tree-sitter (:mod:`graphmem.anchors`), and each edit's text is found in it: the
innermost symbol holding that text is the symbol the edit changed, with its key and
content hash, so a belief formed from the edit can anchor to it. An edit that was
reverted later is found by its old text. A file that is gone, outside the project,
too large, in an unsupported language or not parseable, and a text found nowhere or
more than once, give no symbol: an anchor is never guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from graphmem.anchors.extract import ExtractedSymbol, extract_symbols
from graphmem.anchors.languages import language_for_path, load_language
from graphmem.capture.event import EDIT_TOOLS, EventKind, SpoolRecord

MAX_FILE_BYTES = 2 * 1024 * 1024
"""The largest file read to find an edit's symbol."""

MIN_TEXT_CHARS = 8
"""The shortest edit text looked for (shorter text matches too many places)."""


@dataclass(frozen=True)
class EditedSymbol:
    """A symbol an edit changed: its anchor key, qualified name and content hash."""

    key: str
    qualname: str
    hash: str


def edited_symbols(
    records: Iterable[SpoolRecord], root: Path
) -> dict[int, tuple[EditedSymbol, ...]]:
    """Each edit record's changed symbols (by spool offset), as the files read now.

    Args:
        records: A session's spool records; only successful edits are read.
        root: The project's root directory; files outside it are never read.
    """
    files = _Files(root)
    found: dict[int, tuple[EditedSymbol, ...]] = {}
    for record in records:
        event = record.event
        if event.kind is not EventKind.POST_TOOL or event.failed or event.tool not in EDIT_TOOLS:
            continue
        symbols: list[EditedSymbol] = []
        for path in event.paths:
            parsed = files.symbols(path)
            if parsed is None:
                continue
            text, defined = parsed
            for old, new in _pairs(event.tool_input):
                symbol = _holding(text, defined, new) or _holding(text, defined, old)
                if symbol is not None and symbol not in symbols:
                    symbols.append(symbol)
        if symbols:
            found[record.n] = tuple(symbols)
    return found


def _pairs(tool_input: dict[str, object]) -> list[tuple[str, str]]:
    """The (old, new) texts of an edit's input: one, or MultiEdit's list."""
    items: list[object] = [tool_input]
    edits = tool_input.get("edits")
    if isinstance(edits, list):
        items.extend(edits)
    pairs = []
    for item in items:
        if isinstance(item, dict):
            old, new = item.get("old_string"), item.get("new_string")
            if isinstance(old, str) and isinstance(new, str):
                pairs.append((old, new))
    return pairs


def _holding(text: str, defined: Sequence[ExtractedSymbol], snippet: str) -> EditedSymbol | None:
    """The innermost symbol holding ``snippet``'s one occurrence in ``text``, if any."""
    snippet = snippet.strip()
    if len(snippet) < MIN_TEXT_CHARS:
        return None
    at = text.find(snippet)
    if at < 0 or text.find(snippet, at + 1) >= 0:
        return None
    first = text.count("\n", 0, at) + 1
    last = first + snippet.count("\n")
    holding = [s for s in defined if s.start_line <= first and last <= s.end_line]
    if not holding:
        return None
    inner = min(holding, key=lambda s: (s.end_line - s.start_line, s.key))
    return EditedSymbol(inner.key, inner.qualname, inner.hash)


class _Files:
    """The project's files, each read and parsed once, relative to its root."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._parsed: dict[str, tuple[str, list[ExtractedSymbol]] | None] = {}

    def symbols(self, path: str) -> tuple[str, list[ExtractedSymbol]] | None:
        """The file's text and symbols, or None when it cannot be read or parsed."""
        if path not in self._parsed:
            self._parsed[path] = self._parse(path)
        return self._parsed[path]

    def _parse(self, path: str) -> tuple[str, list[ExtractedSymbol]] | None:
        relative = _relative(self._root, path)
        spec = language_for_path(relative) if relative else None
        language = load_language(spec.name) if spec else None
        if relative is None or language is None:
            return None
        try:
            full = (self._root / relative).resolve(strict=True)
            if not full.is_relative_to(self._root.resolve()) or not full.is_file():
                return None
            if full.stat().st_size > MAX_FILE_BYTES:
                return None
            data = full.read_bytes()
            text = data.decode("utf-8")
            defined, _ = extract_symbols(language, relative, data)
        except (OSError, UnicodeDecodeError, SyntaxError, RuntimeError):
            return None
        return text, defined


def _relative(root: Path, path: str) -> str | None:
    """``path`` relative to ``root`` in POSIX form, or None when it is outside it."""
    candidate = Path(path)
    if candidate.is_absolute():
        try:
            candidate = candidate.relative_to(root)
        except ValueError:
            return None
    parts = candidate.parts
    if not parts or ".." in parts:
        return None
    return candidate.as_posix()
