"""The language registry: file suffixes, grammars and graphmem's own ``.scm`` queries.

Adding a language is one ``extractors/<name>.scm`` file plus one :data:`LANGUAGES`
entry (which may also list shared query files, as JavaScript and TypeScript do).
Grammars come from the official per-language wheels, or for the optional languages
from ``tree-sitter-language-pack`` 0.13.x (``pip install graphmem[languages]``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import PurePosixPath

import tree_sitter

from graphmem._resources import data_path


def _wheel(module: str, function: str = "language") -> Callable[[], object]:
    def load() -> object:
        return getattr(importlib.import_module(module), function)()

    return load


def _pack(name: str) -> Callable[[], object]:
    def load() -> object:
        pack = importlib.import_module("tree_sitter_language_pack")
        return pack.get_language(name)

    return load


@dataclass(frozen=True)
class LanguageSpec:
    """How to parse one language and which definitions to extract."""

    name: str
    suffixes: tuple[str, ...]
    grammar: Callable[[], object] = field(repr=False)
    query_files: tuple[str, ...] = ()
    """The ``extractors/`` files (without ``.scm``) of its query; default: its name."""
    constructor_names: frozenset[str] = frozenset()


LANGUAGES: tuple[LanguageSpec, ...] = (
    LanguageSpec(
        "python",
        (".py", ".pyi"),
        _wheel("tree_sitter_python"),
        constructor_names=frozenset({"__init__"}),
    ),
    LanguageSpec(
        "javascript",
        (".js", ".mjs", ".cjs", ".jsx"),
        _wheel("tree_sitter_javascript"),
        query_files=("ecmascript", "javascript"),
        constructor_names=frozenset({"constructor"}),
    ),
    LanguageSpec(
        "typescript",
        (".ts", ".mts", ".cts"),
        _wheel("tree_sitter_typescript", "language_typescript"),
        query_files=("ecmascript", "typescript"),
        constructor_names=frozenset({"constructor"}),
    ),
    LanguageSpec(
        "tsx",
        (".tsx",),
        _wheel("tree_sitter_typescript", "language_tsx"),
        query_files=("ecmascript", "typescript"),
        constructor_names=frozenset({"constructor"}),
    ),
    LanguageSpec("go", (".go",), _wheel("tree_sitter_go")),
    LanguageSpec("rust", (".rs",), _wheel("tree_sitter_rust")),
    LanguageSpec("java", (".java",), _wheel("tree_sitter_java")),
    LanguageSpec("c", (".c", ".h"), _pack("c")),
)

_BY_SUFFIX = {suffix: spec for spec in LANGUAGES for suffix in spec.suffixes}
_BY_NAME = {spec.name: spec for spec in LANGUAGES}


def language_for_path(path: str) -> LanguageSpec | None:
    """Returns the language of a file by its suffix, or None when unsupported."""
    return _BY_SUFFIX.get(PurePosixPath(path).suffix.lower())


def language_named(name: str) -> LanguageSpec | None:
    """Returns the registered language called ``name``, or None."""
    return _BY_NAME.get(name)


@dataclass(frozen=True)
class LoadedLanguage:
    """A language ready to parse: grammar, parser factory and compiled query."""

    spec: LanguageSpec
    language: tree_sitter.Language
    query: tree_sitter.Query

    def parser(self) -> tree_sitter.Parser:
        """Returns a new parser for this language."""
        return tree_sitter.Parser(self.language)


@cache
def load_language(name: str) -> LoadedLanguage | None:
    """Loads a language's grammar and query once per process.

    Returns:
        None when its grammar is not installed (an optional language without the
        ``languages`` extra).
    """
    spec = _BY_NAME[name]
    try:
        grammar = spec.grammar()
    except ImportError:
        return None
    if not isinstance(grammar, tree_sitter.Language):
        grammar = tree_sitter.Language(grammar)
    language = grammar
    source = "\n".join(
        (data_path("extractors") / f"{name}.scm").read_text(encoding="utf-8")
        for name in spec.query_files or (spec.name,)
    )
    return LoadedLanguage(spec, language, tree_sitter.Query(language, source))
