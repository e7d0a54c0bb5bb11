"""What the docs test reads from a Markdown file: its fenced blocks, their directives,
the principals it names and its links."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

RUN = frozenset({"bash", "python"})
"""Fence languages whose blocks are run."""
CHECKED = frozenset({"json", "toml", "cypher"})
"""Fence languages whose blocks are parsed or looked up, not run."""
SHOWN = frozenset({"text"})
"""Fence languages that are only shown: diagrams, output samples."""
LANGUAGES = RUN | CHECKED | SHOWN

BLOCK_DIRECTIVES = ("exit", "server", "mcp-stdio", "setup", "ci")
DOC_DIRECTIVES = ("managed-server",)

_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_DIRECTIVE = re.compile(r"^<!--\s*docs-test:\s*(?P<body>.*?)\s*-->\s*$")
_NAME = r"([A-Za-z0-9][A-Za-z0-9._:@+/-]*)"
_PRINCIPALS = (
    re.compile(r"--(?:as-)?principal[ =]+['\"]?" + _NAME),
    re.compile(r"GRAPHMEM_PRINCIPAL=['\"]?" + _NAME),
    re.compile(r"\"GRAPHMEM_PRINCIPAL\":\s*\"" + _NAME),
    re.compile(r"\bprincipal\s*=\s*['\"]" + _NAME),
)
DEMO_PRINCIPAL = "demo"
"""Whose memory `graphmem demo` writes unless told otherwise."""
_LINK = re.compile(r"!?\[[^\]]*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
_URL = re.compile(r"\b(?:https?|ftp)://[^\s)>\]`'\"]+")
LOCAL_HOSTS = ("127.0.0.1", "localhost")


@dataclass(frozen=True)
class Block:
    """One fenced block: where it starts, its language, its text, its directive."""

    doc: Path
    line: int
    """The line of the opening fence (1-based)."""
    language: str
    text: str
    directive: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        name = self.doc.relative_to(REPO) if self.doc.is_relative_to(REPO) else self.doc
        return f"{name}:{self.line}"


@dataclass(frozen=True)
class Doc:
    """A Markdown file as the docs test sees it."""

    path: Path
    text: str
    blocks: tuple[Block, ...]
    managed_server: bool
    problems: tuple[str, ...]
    """Fences or directives the test cannot accept (no language, unknown directive...)."""


def doc_files() -> list[Path]:
    """README.md, CHANGELOG.md and every docs/*.md."""
    return [REPO / "README.md", REPO / "CHANGELOG.md", *sorted((REPO / "docs").glob("*.md"))]


def _directive(line: str) -> tuple[str, ...] | None:
    match = _DIRECTIVE.match(line.strip())
    return tuple(match.group("body").split()) if match else None


def parse(path: Path) -> Doc:
    """Reads ``path``'s fenced blocks, in order, with the directive above each."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    blocks: list[Block] = []
    problems: list[str] = []
    first = _directive(lines[0]) if lines else None
    if first is not None and first not in {(d,) for d in DOC_DIRECTIVES}:
        problems.append(f"{path.name}:1: unknown doc directive {' '.join(first)!r}")
    pending: tuple[str, ...] | None = None
    pending_line = 0
    index = 1 if first is not None else 0
    while index < len(lines):
        line = lines[index]
        directive = _directive(line)
        if directive is not None:
            if pending is not None:
                problems.append(f"{path.name}:{pending_line}: directive not followed by a fence")
            pending, pending_line = directive, index + 1
            index += 1
            continue
        fence = _FENCE.match(line)
        if fence is None:
            if pending is not None:
                problems.append(f"{path.name}:{pending_line}: directive not followed by a fence")
                pending = None
            index += 1
            continue
        opening, indent = fence.group("fence"), len(fence.group("indent"))
        language = fence.group("info").strip().split(" ")[0]
        body: list[str] = []
        index += 1
        while index < len(lines) and not re.match(
            rf"^ {{0,{indent + 3}}}{re.escape(opening[0])}{{{len(opening)},}}\s*$", lines[index]
        ):
            body.append(lines[index][indent:] if lines[index][:indent].isspace() else lines[index])
            index += 1
        start = index - len(body)
        if index >= len(lines):
            problems.append(f"{path.name}:{start}: fence never closed")
        index += 1
        block = Block(path, start, language, "\n".join(body) + "\n", pending or ())
        pending = None
        if language not in LANGUAGES:
            problems.append(
                f"{block.where}: fence language {language!r} is not one of {sorted(LANGUAGES)}"
            )
        elif block.directive and block.directive[0] not in BLOCK_DIRECTIVES:
            problems.append(f"{block.where}: unknown directive {' '.join(block.directive)!r}")
        elif block.directive and language != "bash":
            problems.append(f"{block.where}: directives are for bash blocks, not {language}")
        blocks.append(block)
    if pending is not None:
        problems.append(f"{path.name}:{pending_line}: directive not followed by a fence")
    return Doc(path, text, tuple(blocks), first == ("managed-server",), tuple(problems))


def principals(doc: Doc) -> set[str]:
    """The principals a doc names (and `demo` when it runs `graphmem demo`)."""
    found = {match.group(1) for pattern in _PRINCIPALS for match in pattern.finditer(doc.text)}
    if re.search(r"\bgraphmem demo\b", doc.text):
        found.add(DEMO_PRINCIPAL)
    return found


def links(doc: Doc) -> list[str]:
    """Every Markdown link target in ``doc``, outside fenced blocks too."""
    return [match.group("target") for match in _LINK.finditer(doc.text)]


def urls(doc: Doc) -> list[str]:
    """Every URL written anywhere in ``doc``."""
    return [match.group(0) for match in _URL.finditer(doc.text)]


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown file."""
    found: set[str] = set()
    counts: dict[str, int] = {}
    in_fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if in_fence or heading is None:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).replace("`", "").lower()).replace(" ", "-")
        number = counts.get(slug, 0)
        counts[slug] = number + 1
        found.add(slug if number == 0 else f"{slug}-{number}")
    return found
