"""Names that recur in memory text, found by rule (no model): the entity layer's input.

A name is what a later text is likely to say again the same way: a code identifier
(``CamelCase``, ``snake_case``, a dotted path like ``a.b.c``), a file path
(``src/x/y.py``), a ticket (``FIN-212``), a package (``pip install httpx``,
``import numpy``), an error name (``KeyError``, ``ECONNREFUSED``), or a proper noun,
one word or several ("Caroline", "Neo4j Browser", "New York"). Names are normalised
to lower case with a possessive ``'s`` dropped, so "Caroline's" and "caroline" are one
name. Capitalised function words ("The", "What"), common sentence openers ("Thanks",
"Yesterday"), months and weekdays are not names; neither is anything without a letter.
A lone capitalised word opening a sentence is a name only when marked as one. Extraction is
deterministic: the same text always gives the same sorted names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

MAX_NAMES = 24
"""At most this many names per node: the first found (code before prose), then sorted."""
MAX_NAME_CHARS = 120
"""A longer match is not a name anyone repeats."""
MAX_PROPER_WORDS = 4
"""A longer run of capitalised words is a title or a heading, not one name."""


class EntityKind(StrEnum):
    """What a name looks like."""

    PATH = "path"
    DOTTED = "dotted"
    IDENTIFIER = "identifier"
    ERROR = "error"
    PACKAGE = "package"
    PROPER = "proper"


@dataclass(frozen=True, order=True)
class Name:
    """One normalised name and what it looks like."""

    name: str
    kind: EntityKind


_PATH = re.compile(r"(?<![\w/.-])\.{0,2}/?(?:[\w.-]+/)+[\w.-]*\w")
_EXTENSION = re.compile(r"\.[A-Za-z]\w{0,7}$")
_PACKAGE = re.compile(
    r"\b(?:pip3? install|npm (?:install|i)|yarn add|cargo add|go get|gem install)"
    r"((?:[ \t]+[A-Za-z@](?:[\w@/.=<>~-]*\w)?)+)"
    r"|\bfrom\s+([A-Za-z_][\w.]*)\s+import\b|\bimport\s+([A-Za-z_][\w.]*)"
)
_DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?![\w(])")
_SNAKE = re.compile(r"(?<![\w.])_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*(?![\w.])")
_CAMEL = re.compile(r"(?<![\w.])[A-Za-z][a-z0-9]+[A-Z][A-Za-z0-9]*(?![\w.])")
"""One lowercase run, then a capital and anything alphanumeric: no nested repetition
(``(?:[A-Z][A-Za-z0-9]*)+`` matched the same names and backtracked exponentially on
a long run of capitals followed by a dot)."""
_TICKET = re.compile(r"(?<![\w.-])[A-Z][A-Z0-9]+-\d+(?![\w-])")
_CAPS = re.compile(r"(?<![\w.])[A-Z][A-Z0-9]{2,}(?![\w.])")
_CODE_PATTERNS = (
    (_PATH, EntityKind.PATH, re.compile(r"\w/")),
    (_DOTTED, EntityKind.DOTTED, re.compile(r"\w\.[A-Za-z_]")),
    (_SNAKE, EntityKind.IDENTIFIER, re.compile(r"[A-Za-z0-9]_")),
    (_CAMEL, EntityKind.IDENTIFIER, re.compile(r"[a-z0-9][A-Z]")),
    (_TICKET, EntityKind.IDENTIFIER, re.compile(r"[A-Z]-\d")),
    (_CAPS, EntityKind.IDENTIFIER, re.compile(r"[A-Z][A-Z0-9][A-Z0-9]")),
)
"""Each code pattern, in order of precedence, with a quick test that it may match."""
_PACKAGE_HINT = re.compile(r"install|import|add|go get")
_ERROR_SUFFIX = re.compile(r"(?:error|exception|warning|fault)$")
_ERRNO = re.compile(r"^E[A-Z]{3,}$")
_PROPER_RUN = re.compile(r"[A-Z][\w'\u2019-]*(?:(?: | of | de )[A-Z][\w'\u2019-]*)*")
_POSSESSIVE = re.compile(r"['\u2019]s?$")
_SENTENCE_OPENERS = frozenset('.!?:;\n"\u201c(')
_MASK = "\x00"

STOP_WORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each
    either else ever every few for from further had has have having he her here hers
    herself him himself his how however i if in into is it its itself just let like
    may me might more most much must my myself neither no nor not now of off on once
    only or other our ours ourselves out over own same shall she should since so some
    such than that the their theirs them themselves then there these they this those
    though through thus to too under until up upon us very was we were what whatever
    when whenever where wherever whether which while who whoever whom whose why will
    with within without would yet you your yours yourself yourselves
    actually absolutely agreed ah alright although anyway anyways apparently aw aww
    awesome bye cheers congrats congratulations cool dear definitely exactly fine first
    finally good great haha hello hey hi hmm honestly hope hopefully indeed interesting
    last lately later lol maybe meanwhile nice next no nope oh ok okay oops perhaps
    please plus really right sadly say see so sorry sounds still sure thank thanks that's
    today together tomorrow totally true unfortunately wait well whoa wow yay yeah yep
    yes yesterday yup it's i'm i've i'd i'll you're you've we're they're don't can't
    january february march april june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun
    mondays tuesdays wednesdays thursdays fridays saturdays sundays weekend weekends
    jan feb mar apr jun jul aug sep sept oct nov dec
    mr mrs ms dr st session
    """.split()  # noqa: SIM905 (a word list reads better as text)
)
"""Lower-cased words that are never a name on their own (and are trimmed off a run)."""


def _normal(text: str) -> str:
    return _POSSESSIVE.sub("", text.strip(".,;:!?\"'()[]{}<>")).lower()


def _kept(name: str) -> bool:
    return (
        1 < len(name) <= MAX_NAME_CHARS
        and any(c.isalpha() for c in name)
        and name not in STOP_WORDS
    )


def _code_names(text: str) -> tuple[list[Name], str]:
    """The code-shaped names in ``text``, and the text with them masked out."""
    found: list[tuple[int, Name]] = []
    masked = list(text)

    def take(start: int, end: int, name: str, kind: EntityKind) -> None:
        if _kept(name):
            found.append((start, Name(name, kind)))
        masked[start:end] = _MASK * (end - start)

    for match in _PACKAGE.finditer(text) if _PACKAGE_HINT.search(text) else ():
        group = next(g for g in (1, 2, 3) if match.group(g))
        start = match.start(group)
        for word in re.finditer(r"\S+", match.group(group)):
            package = _normal(re.split(r"[=<>~]", word.group())[0])
            take(start + word.start(), start + word.end(), package, EntityKind.PACKAGE)
    for pattern, kind, hint in _CODE_PATTERNS:
        if hint.search(text) is None:
            continue  # cheaper than the pattern itself, and most text has no code
        for match in pattern.finditer("".join(masked)):
            value = match.group()
            if kind is EntityKind.PATH and not (value.count("/") >= 2 or _EXTENSION.search(value)):
                continue
            if kind is EntityKind.DOTTED and all(len(part) == 1 for part in value.split(".")):
                continue  # e.g., i.e.
            name = value.lower()
            if kind is EntityKind.IDENTIFIER and (
                (_ERROR_SUFFIX.search(name) and value[0].isupper()) or _ERRNO.match(value)
            ):
                kind_here = EntityKind.ERROR
            else:
                kind_here = kind
            take(match.start(), match.end(), name, kind_here)
    return [name for _, name in sorted(found, key=lambda pair: pair[0])], "".join(masked)


def _sentence_initial(text: str, start: int) -> bool:
    before = text[max(0, start - 20) : start].rstrip(" \t")
    return not before or before[-1] in _SENTENCE_OPENERS


def _proper_names(text: str) -> list[Name]:
    """Runs of capitalised words, trimmed of function words at either end.

    A lone capitalised word that opens a sentence ("Talked to...", "Retry storm") is a
    name only when it is marked as one (a speaker's ``Name:``, ``Name's``, ``Name,``)
    or the text also capitalises it mid-sentence.
    """
    found: list[tuple[Name, bool]] = []
    for match in _PROPER_RUN.finditer(text):
        words = [word for word in (_normal(w) for w in match.group().split(" ")) if word]
        opens = _sentence_initial(text, match.start())
        while words and words[0] in STOP_WORDS:
            words.pop(0)
            opens = False
        while words and words[-1] in STOP_WORDS:
            words.pop()
        if not words or len(words) > MAX_PROPER_WORDS:
            continue
        name = " ".join(words)
        if _kept(name):
            marked = text[match.end() : match.end() + 1] in (":", ",") or bool(
                _POSSESSIVE.search(match.group())
            )
            found.append((Name(name, EntityKind.PROPER), opens and len(words) == 1 and not marked))
    known = {name for name, doubtful in found if not doubtful}
    return [name for name, doubtful in found if not doubtful or name in known]


def extract(text: str) -> list[Name]:
    """The names ``text`` mentions, in order of first mention (code first), unique."""
    code, masked = _code_names(text)
    return list(dict.fromkeys(code + _proper_names(masked)))


def names_of(texts: Iterable[str | None], paths: Iterable[str] = ()) -> list[Name]:
    """A node's names: from its texts and the file paths it names, capped and sorted.

    Args:
        texts: The node's free texts (an episode's title and text; a belief's statement
            and subject), read as one text of separate lines. None is skipped.
        paths: File paths or symbol keys it names (an episode's ``paths``).
    """
    found: dict[str, Name] = {}
    for path in paths:
        normal = path.strip().lower()
        if _kept(normal):
            found.setdefault(normal, Name(normal, EntityKind.PATH))
    for named in extract("\n".join(text for text in texts if text)):
        found.setdefault(named.name, named)
    return sorted(list(found.values())[:MAX_NAMES])
