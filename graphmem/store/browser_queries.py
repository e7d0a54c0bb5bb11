"""The Neo4j Browser files under ``queries/browser/``: exploration queries and style sheet.

The queries are read as text for Browser's guide and ``graphmem browse``; graphmem
runs them only through the store, with parameters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from graphmem.errors import ConfigError, InvalidInput
from graphmem.store.cypher import queries_dir

GUIDE_ORDER = (
    "overview",
    "project",
    "subject",
    "mentions",
    "symbol",
    "promotions",
    "supersession",
    "conflicts",
    "drifted",
    "episode",
    "belief",
)
"""The guide's order: wide views first, then the ones that open one node."""
STYLE_FILE = "graphmem.grass"
"""graphmem's Browser style sheet, beside the queries."""
_PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_DOCUMENTED = re.compile(r"^\$(\w+): (.*?)(?: \(demo: (.+)\))?$")


@dataclass(frozen=True)
class BrowserQuery:
    """One shipped exploration query, as its ``.cypher`` file states it."""

    name: str
    """The file's name without ``.cypher``; what ``graphmem browse --query`` takes."""
    title: str
    """The first comment line: what the query shows."""
    description: str
    """The other comment lines, joined."""
    parameters: tuple[str, ...]
    """Its ``$parameters`` other than ``principal``, in order of first use."""
    help: Mapping[str, str]
    """What each parameter is, from its ``// $name: ...`` comment line."""
    examples: Mapping[str, str]
    """Demo values, from ``(demo: ...)`` at the end of a parameter's comment line."""
    text: str
    """The whole statement, comments included."""


def _parse(name: str, text: str) -> BrowserQuery:
    comments = []
    for line in text.splitlines():
        if not line.startswith("//"):
            break
        comments.append(line.removeprefix("//").strip())
    if not comments:
        raise ConfigError(f"browser query {name!r} does not start with a // comment")
    help_: dict[str, str] = {}
    examples: dict[str, str] = {}
    description = []
    for comment in comments[1:]:
        documented = _DOCUMENTED.match(comment)
        if documented is None:
            description.append(comment)
            continue
        help_[documented[1]] = documented[2]
        if documented[3] is not None:
            examples[documented[1]] = documented[3]
    body = "\n".join(line for line in text.splitlines() if not line.startswith("//"))
    used = dict.fromkeys(_PARAMETER.findall(body))
    used.pop("principal", None)
    return BrowserQuery(
        name=name,
        title=comments[0],
        description=" ".join(description),
        parameters=tuple(used),
        help=help_,
        examples=examples,
        text=text.strip() + "\n",
    )


def browser_queries() -> list[BrowserQuery]:
    """Returns the shipped exploration queries in the guide's order.

    Raises:
        ConfigError: A query file does not start with a ``//`` comment.
    """
    directory = queries_dir() / "browser"
    found = {path.stem: path for path in directory.glob("*.cypher")}
    order = [n for n in GUIDE_ORDER if n in found] + sorted(set(found) - set(GUIDE_ORDER))
    return [_parse(name, found[name].read_text(encoding="utf-8")) for name in order]


def browser_query(name: str) -> BrowserQuery:
    """Returns the shipped exploration query ``name``.

    Raises:
        InvalidInput: No such query; the message lists the valid names.
    """
    queries = {query.name: query for query in browser_queries()}
    if name not in queries:
        raise InvalidInput(
            f"query: {name!r} is not a graphmem Browser query; use one of {', '.join(queries)}",
            field="query",
            rule="known",
            valid=list(queries),
        )
    return queries[name]


def browser_style() -> bytes:
    """Returns graphmem's Browser style sheet (``queries/browser/graphmem.grass``)."""
    return (queries_dir() / "browser" / STYLE_FILE).read_bytes()
