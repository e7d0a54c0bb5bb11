"""How a caller other than an agent shows a recall: a hook injecting it as context.

A recall normally returns its ``k`` items rendered by :mod:`~graphmem.recall.render`.
A hook shows fewer (a relevance floor, a token budget, nothing it showed earlier in the
session) in text of its own; the engine hands it the ranked items with each arm's
score, and traces what it chose to show, so ``cite`` and miss hints work on exactly
what was injected (docs/capture.md#injection).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from graphmem.models import RecallItem


@dataclass(frozen=True)
class Offered:
    """One ranked item, with each arm's own score of it (BM25, cosine...)."""

    item: RecallItem
    arm_scores: dict[str, float]


@dataclass(frozen=True)
class Presented:
    """What the presenter chose: the items shown, their text, its size in tokens."""

    items: list[RecallItem]
    text: str
    tokens: int


@dataclass(frozen=True)
class Presentation:
    """A hook's way of showing one recall.

    Attributes:
        present: Chooses and renders from the ranked items (best first).
        session_id: The agent-host session it is injected into.
        hook_event: What it answers: ``session_start``, ``prompt`` or ``pre_tool``.
        trace_id: The id its trace gets (made beforehand: the text names it).
    """

    present: Callable[[Sequence[Offered]], Presented]
    session_id: str
    hook_event: str
    trace_id: str
