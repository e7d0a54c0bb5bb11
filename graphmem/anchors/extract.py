"""Extracts definitions and same-file call references from one source file."""

from __future__ import annotations

from dataclasses import dataclass

import tree_sitter

from graphmem.anchors.keys import git_blob_id, symbol_hash
from graphmem.anchors.languages import LoadedLanguage
from graphmem.content import symbol_key

_CONTAINER_KINDS = frozenset({"class", "interface", "enum", "scope"})

NodeId = int
"""A node's id within its tree (``tree_sitter.Node.id``): the same node, the same id."""


@dataclass(frozen=True)
class ExtractedSymbol:
    """One definition: its key, names, kind, content hash, lines and enclosing symbol."""

    key: str
    name: str
    qualname: str
    kind: str
    hash: str
    start_line: int
    end_line: int
    parent: str | None
    """Key of the enclosing symbol; None when the file itself contains it."""


@dataclass(frozen=True)
class FileExtraction:
    """What one file yields; ``error`` says why it has no symbols when it has none."""

    path: str
    lang: str
    blob: str
    symbols: tuple[ExtractedSymbol, ...] = ()
    references: tuple[tuple[str, str], ...] = ()
    """(caller key, callee key) for calls that resolve to one definition in the file."""
    error: str | None = None


@dataclass
class _Definition:
    node: tree_sitter.Node
    kind: str
    name: str
    receiver: str | None
    pattern: int


def _text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8")


def _collect(
    language: LoadedLanguage, root: tree_sitter.Node
) -> tuple[dict[NodeId, _Definition], list[tuple[tree_sitter.Node, str]]]:
    definitions: dict[NodeId, _Definition] = {}
    calls: list[tuple[tree_sitter.Node, str]] = []
    for pattern, captures in tree_sitter.QueryCursor(language.query).matches(root):
        names = captures.get("name")
        if not names:
            continue
        name = _text(names[0])
        if "reference.call" in captures:
            calls.append((captures["reference.call"][0], name))
            continue
        for capture, nodes in captures.items():
            if capture == "scope" or capture.startswith("definition."):
                kind = capture.removeprefix("definition.")
                receivers = captures.get("receiver")
                receiver = _text(receivers[0]) if receivers else None
                node_id = nodes[0].id
                known = definitions.get(node_id)
                if known is None or pattern < known.pattern:  # first pattern wins
                    definitions[node_id] = _Definition(nodes[0], kind, name, receiver, pattern)
    return definitions, calls


def _enclosing(node: tree_sitter.Node, definitions: dict[NodeId, _Definition]) -> list[_Definition]:
    """The definitions enclosing ``node``, outermost first."""
    chain: list[_Definition] = []
    parent = node.parent
    while parent is not None:
        found = definitions.get(parent.id)
        if found is not None:
            chain.append(found)
        parent = parent.parent
    chain.reverse()
    return chain


def _innermost_symbol(node: tree_sitter.Node, keys: dict[NodeId, str]) -> str | None:
    parent = node.parent
    while parent is not None:
        key = keys.get(parent.id)
        if key is not None:
            return key
        parent = parent.parent
    return None


def extract_symbols(
    language: LoadedLanguage, path: str, source: bytes
) -> tuple[list[ExtractedSymbol], list[tuple[str, str]]]:
    """Returns the symbols and resolved same-file references of parsed ``source``.

    Raises:
        SyntaxError: The source does not parse cleanly.
    """
    tree = language.parser().parse(source)
    if tree.root_node.has_error:
        raise SyntaxError("syntax error")
    definitions, calls = _collect(language, tree.root_node)
    symbols: list[ExtractedSymbol] = []
    keys: dict[NodeId, str] = {}
    seen: dict[tuple[str, str], int] = {}
    # Outermost first among definitions at one place: parents get their keys first.
    for node_id, definition in sorted(
        definitions.items(),
        key=lambda item: (item[1].node.start_byte, -item[1].node.end_byte, item[1].node.type),
    ):
        if definition.kind == "scope":
            continue
        chain = _enclosing(definition.node, definitions)
        kind = definition.kind
        if kind == "function" and chain and chain[-1].kind in _CONTAINER_KINDS:
            kind = "method"
        if kind == "method" and definition.name in language.spec.constructor_names:
            kind = "constructor"
        names = [d.name for d in chain]
        if definition.receiver:
            names.append(definition.receiver)
        qualname = ".".join([*names, definition.name])
        collision = seen.get((qualname, kind), 0) + 1
        seen[(qualname, kind)] = collision
        key = symbol_key(language.spec.name, path, qualname, kind, collision)
        keys[node_id] = key
        parents = [keys[d.node.id] for d in chain if d.kind != "scope"]
        symbols.append(
            ExtractedSymbol(
                key=key,
                name=definition.name,
                qualname=qualname,
                kind=kind,
                hash=symbol_hash(_text(definition.node)),
                start_line=definition.node.start_point[0] + 1,
                end_line=definition.node.end_point[0] + 1,
                parent=parents[-1] if parents else None,
            )
        )
    by_name: dict[str, list[str]] = {}
    for symbol in symbols:
        by_name.setdefault(symbol.name, []).append(symbol.key)
    references: set[tuple[str, str]] = set()
    for call, name in calls:
        targets = by_name.get(name, [])
        if len(targets) != 1:  # most calls name nothing defined once in the file
            continue
        caller = _innermost_symbol(call, keys)
        if caller is not None:
            references.add((caller, targets[0]))
    return symbols, sorted(references)


def extract_file(language: LoadedLanguage, path: str, data: bytes) -> FileExtraction:
    """Extracts one file; a file that cannot be parsed gets an ``error`` reason."""
    blob = git_blob_id(data)
    lang = language.spec.name
    if b"\0" in data[:8192]:
        return FileExtraction(path, lang, blob, error="binary")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return FileExtraction(path, lang, blob, error="invalid UTF-8")
    try:
        symbols, references = extract_symbols(language, path, data)
    except SyntaxError:
        return FileExtraction(path, lang, blob, error="syntax error")
    return FileExtraction(path, lang, blob, tuple(symbols), tuple(references))
