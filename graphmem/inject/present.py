"""What an injection shows, and how it reads (pure; docs/capture.md#injection).

Three presenters, one per moment a hook may add context:

- the **brief** at session start: the user's rules and preferences, how the project
  builds and tests, its dead ends and fixes, recent decisions, and what turned stale,
  in that priority under a token budget, rendered grouped by section;
- **prompt** recall: the few items above the relevance floor;
- **before a command**: the dead ends and fixes recorded for that command, and those of
  the error signatures it failed with before.

Every line is a fact with its provenance (a short id, its kind), never an instruction:
imperative text can trip a host's own prompt-injection defences. A rule the user stated
is quoted as what the user said. Items the injection scan flagged are never injected,
nor is anything injected earlier in the session (``exclude``). Same items, same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from graphmem.models import BeliefType, RecallItem
from graphmem.recall.presentation import Offered, Presented

MAX_CHARS = 9_000
"""An injection's most characters (hosts cap an output string at 10,000)."""

SEMANTIC_FLOOR = 0.5
"""The cosine a prompt's item needs from the semantic arm alone to be injected."""

LEXICAL_SEMANTIC_FLOOR = 0.35
"""The cosine an item the lexical arm also matched needs (shared words are evidence)."""

PROMPT_ITEMS = 3
"""The most items one prompt injects."""

RECENT_DECISIONS = 3
"""The newest decisions a brief holds (ids are UUIDv7: they sort by creation)."""

SHORT_ID = 8
"""Characters of an id shown (its random tail); ``cite`` takes them (docs/capture.md)."""

Count = Callable[[str], int]
"""Counts a text's tokens (the embedder's tokenizer)."""

_QUOTED = re.compile(r'"([^"]{8,})"')
_CODE = re.compile(r"`([^`]+)`")

_KIND = {
    BeliefType.DEAD_END: "dead end",
    BeliefType.LESSON: "fix",
    BeliefType.PREFERENCE: "user rule",
    BeliefType.DECISION: "decision",
}


@dataclass(frozen=True)
class _Section:
    title: str
    chosen: Callable[[RecallItem], bool]


_SECTIONS = (
    _Section("Rules and preferences the user stated", lambda i: i.type is BeliefType.PREFERENCE),
    _Section(
        "How the project builds and tests",
        lambda i: i.type is BeliefType.FACT and "`" in i.statement,
    ),
    _Section("Dead ends (approaches tried and abandoned)", lambda i: i.type is BeliefType.DEAD_END),
    _Section("Fixes that worked", lambda i: i.type is BeliefType.LESSON),
    _Section("Recent decisions", lambda i: i.type is BeliefType.DECISION),
)
"""The brief's sections, in priority order; an item goes in the first that takes it.

The user's rules and the build and test commands come first: they are short, hold for
every task of the session, and are injected nowhere else unless a prompt asks after
them, while dead ends and fixes, long lines each, come again before the command they
concern and for a prompt about their error. Dead ends first (until issue 37) let two
of them fill a 400-token brief: on the ``bench/formation`` replay the user's rules then
never reached a later session."""

SAME_ERROR = "the same error"
"""What a line says for an error a line above it quoted."""

STALE_SECTION = "Not confirmed by a session lately (may be out of date)"


def short_id(item_id: str) -> str:
    """The last :data:`SHORT_ID` characters of an id (a UUIDv7's random tail)."""
    return item_id.replace("-", "")[-SHORT_ID:]


def line(item: RecallItem, project: str) -> str:
    """One item as a fact with its provenance, on one line."""
    statement = " ".join(item.statement.split())
    if item.type is BeliefType.PREFERENCE:
        statement = f'The user said: "{statement}"'
    kind = _KIND.get(item.type, str(item.type).replace("_", " "))
    where = "" if project in item.origins else f", from {', '.join(item.origins)}"
    return f"- [{short_id(item.id)}] {kind}{where}: {statement}"


def brief(
    offered: Sequence[Offered],
    project: str,
    trace: str,
    budget: int,
    count: Count,
    exclude: Collection[str] = (),
) -> Presented:
    """The session-start brief: sections in priority order, under ``budget`` tokens.

    Args:
        offered: The project's live beliefs, best first (the snapshot's order).
        project: The session's project.
        trace: The id of the trace that records it (the header names its short form).
        budget: The most tokens the brief takes, header included.
        count: The tokenizer's count.
        exclude: Ids injected earlier in this session.

    Returns:
        The items kept and their text; nothing (empty text) when none is kept.
    """
    usable = [
        o.item
        for o in offered
        if o.item.flagged is None and o.item.id not in exclude and _here(o.item, project)
    ]
    ranked: list[tuple[int, RecallItem]] = []
    for item in usable:
        if item.stale:
            ranked.append((len(_SECTIONS), item))
            continue
        place = next((n for n, s in enumerate(_SECTIONS) if s.chosen(item)), None)
        if place is not None:
            ranked.append((place, item))
    decisions = len(_SECTIONS) - 1
    recent = sorted((i.id for p, i in ranked if p == decisions), reverse=True)[:RECENT_DECISIONS]
    ranked = [(p, i) for p, i in ranked if p != decisions or i.id in recent]
    ranked.sort(key=lambda entry: entry[0])  # stable: within a section, the given order
    header = f"graphmem, what earlier sessions recorded in {project} (trace {short_id(trace)}):"
    titles = [s.title for s in _SECTIONS] + [STALE_SECTION]

    def render(kept: list[tuple[int, RecallItem]]) -> str:
        lines = [header]
        for place, title in enumerate(titles):
            members = [item for p, item in kept if p == place]
            if members:
                lines.append(f"{title}:")
                lines.extend(line(item, project) for item in members)
        return "\n".join(_once(lines)) + "\n"

    return _fit(ranked, render, budget, count)


def prompt(
    offered: Sequence[Offered],
    project: str,
    trace: str,
    budget: int,
    count: Count,
    exclude: Collection[str] = (),
) -> Presented:
    """What a prompt's recall injects: relevant items of this project or principal scope.

    Args:
        offered: The recall's items, best first, with their arm scores.
        project: The session's project.
        trace: The id of the trace that records it (the header names its short form).
        budget: The most tokens, header included.
        count: The tokenizer's count.
        exclude: Ids injected earlier in this session.
    """
    chosen = [
        o.item
        for o in offered
        if relevant(o)
        and o.item.flagged is None
        and o.item.id not in exclude
        and _here(o.item, project)
    ][:PROMPT_ITEMS]
    header = f"graphmem, from earlier sessions (trace {short_id(trace)}):"
    return _fit(list(enumerate(chosen)), _plain(header, project), budget, count)


def command(
    offered: Sequence[Offered],
    normalised: str,
    project: str,
    trace: str,
    budget: int,
    count: Count,
    exclude: Collection[str] = (),
) -> Presented:
    """What runs before a shell command: its recorded dead ends and fixes.

    An item matches when it names the command in backticks (normalised; the same
    command with more or fewer arguments counts, :func:`_same_command`) or an error
    signature a matching item quotes (the command failed with it before).

    Args:
        offered: A recall for the command over dead ends and fixes, best first.
        normalised: The command in normal form (``capture.signals.normalise_command``).
        project: The session's project.
        trace: The id of the trace that records it (the header names its short form).
        budget: The most tokens, header included.
        count: The tokenizer's count.
        exclude: Ids injected earlier in this session.
    """
    items = [
        o.item
        for o in offered
        if o.item.flagged is None
        and o.item.type in (BeliefType.DEAD_END, BeliefType.LESSON)
        and _here(o.item, project)
    ]
    direct = [
        item
        for item in items
        if any(_same_command(normalised, c) for c in _CODE.findall(item.statement))
    ]
    signatures = {s for item in direct for s in _QUOTED.findall(item.statement)}
    related = [
        item
        for item in items
        if item in direct or any(f'"{s}"' in item.statement for s in signatures)
    ]
    related.sort(key=lambda item: item.type is not BeliefType.DEAD_END)  # dead ends first
    chosen = [item for item in related if item.id not in exclude][:PROMPT_ITEMS]
    header = f"graphmem, about `{normalised[:200]}` (trace {short_id(trace)}):"
    return _fit(list(enumerate(chosen)), _plain(header, project), budget, count)


def _here(item: RecallItem, project: str) -> bool:
    """Whether an item belongs to the session: its project's, or principal scope."""
    return project in item.origins or item.scope == "principal"


def _same_command(asked: str, recorded: str) -> bool:
    """Whether two normalised commands run the same thing, one perhaps narrower.

    ``python -m pytest`` and ``python -m pytest tests/test_a.py`` are the same check;
    ``python -m pytest`` and ``python -m pip`` are not.
    """
    return asked == recorded or recorded.startswith(asked + " ") or asked.startswith(recorded + " ")


def relevant(offered: Offered) -> bool:
    """Whether a recalled item clears the relevance floor for injection.

    The fused score is relative to the best hit, so the floor reads the arms' own
    scores: a close semantic match, or shared words with a fair semantic match.
    """
    cosine = offered.arm_scores.get("semantic", 0.0)
    if cosine >= SEMANTIC_FLOOR:
        return True
    return "lexical" in offered.arm_scores and cosine >= LEXICAL_SEMANTIC_FLOOR


def _plain(header: str, project: str) -> Callable[[list[tuple[int, RecallItem]]], str]:
    def render(kept: list[tuple[int, RecallItem]]) -> str:
        return "\n".join([header, *_once(line(item, project) for _, item in kept)]) + "\n"

    return render


def _once(lines: Iterable[str]) -> list[str]:
    """The lines, each quoted error an earlier line quoted shown as "the same error".

    A dead end and its fix quote the same signature; once is enough to read it.
    """
    seen: set[str] = set()
    out: list[str] = []
    for text in lines:
        quoted = _QUOTED.findall(text)
        for signature in quoted:
            if signature in seen:
                text = text.replace(f'"{signature}"', SAME_ERROR)
        seen.update(quoted)
        out.append(text)
    return out


def _fit(
    ranked: list[tuple[int, RecallItem]],
    render: Callable[[list[tuple[int, RecallItem]]], str],
    budget: int,
    count: Count,
) -> Presented:
    """The items, in priority order, whose rendering fits the budget (each tried once).

    A rendering is counted line by line, each distinct line once: the tokenizer splits
    at whitespace first, so a text's count is the sum of its lines' counts.
    """
    counted: dict[str, int] = {}

    def tokens(text: str) -> int:
        return sum(
            counted[part] if part in counted else counted.setdefault(part, count(part))
            for part in text.split("\n")
        )

    kept: list[tuple[int, RecallItem]] = []
    for entry in ranked:
        trial = render([*kept, entry])
        if len(trial) <= MAX_CHARS and tokens(trial) <= budget:
            kept.append(entry)
    if not kept:
        return Presented(items=[], text="", tokens=0)
    text = render(kept)
    return Presented(items=[item for _, item in kept], text=text, tokens=tokens(text))
