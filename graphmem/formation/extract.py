"""Candidates for formation, and the extractor port that produces them (docs/formation.md).

The default extractor is deterministic: each structured part of an episode maps to a
belief type and state. An LLM-based extractor can replace it by implementing
:class:`Extractor`; the gates after it do not change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from graphmem.content import plain_text
from graphmem.models import Authority, BeliefState, BeliefType, Episode, EvidenceRole, Portability


@dataclass(frozen=True)
class Candidate:
    """A belief an episode may support, before any gate.

    ``authority`` to ``disputed`` are set by replayed corrections, not by extractors.
    """

    statement: str
    type: BeliefType
    state: BeliefState
    role: EvidenceRole
    subject: str | None = None
    authority: Authority | None = None
    """Overrides the policy's authority (a ``changed`` correction: user)."""
    portability: Portability | None = None
    """Lower than the type's default (a ``not_here`` correction)."""
    not_here: tuple[str, ...] = ()
    """Projects it must not be shown in (``not_here`` corrections)."""
    disputed: bool = False
    """Flagged by an ``unspecified`` correction."""
    anchor: tuple[str, str] | None = None
    """The (key, content hash) of the code symbol it is about (session capture: the symbol
    its edits changed), stored as the belief's anchor as is."""
    replaces: tuple[str, ...] = ()
    """Words of what the user said this rule replaces ("we moved from npm to pnpm":
    ``npm``): a live fact, rule or decision of the project naming one conflicts with it."""


class Extractor(Protocol):
    """Turns one episode into candidate beliefs, in a stable order."""

    def extract(self, episode: Episode) -> list[Candidate]:
        """Returns the episode's candidates (the same episode gives the same list)."""
        ...


_PARTS: tuple[tuple[str, BeliefType, BeliefState, EvidenceRole], ...] = (
    ("observations", BeliefType.FACT, BeliefState.ACTIVE, EvidenceRole.OBSERVATION),
    ("inferences", BeliefType.FACT, BeliefState.PROVISIONAL, EvidenceRole.INFERENCE),
    ("decisions", BeliefType.DECISION, BeliefState.ACTIVE, EvidenceRole.DECISION),
    ("failed_attempts", BeliefType.DEAD_END, BeliefState.ACTIVE, EvidenceRole.FAILED_ATTEMPT),
)
"""Structured part → (type, state, provenance role) (docs/formation.md)."""

_LABELLED = re.compile(r"^(?P<label>[^:.!?\n]{1,40}):\s+(?P<statement>\S.*)$", re.DOTALL)
MAX_LABEL_WORDS = 4


def split_subject(item: str) -> tuple[str | None, str]:
    """Reads ``"deploy day: Fridays"`` as subject ``deploy day`` and its statement.

    Only a short label (at most four words, no sentence punctuation) before the first
    colon counts; anything else is a statement without a subject.
    """
    match = _LABELLED.match(item.strip())
    if match is None or len(match["label"].split()) > MAX_LABEL_WORDS:
        return None, item.strip()
    return match["label"].strip(), match["statement"].strip()


class StructuredExtractor:
    """The default extractor: one candidate per structured item.

    Observations → fact, inferences → provisional fact, decisions → decision, failed
    attempts → dead end; ``"label: statement"`` items carry a subject. Terminal
    sequences and control characters an item may quote are left out of the statement
    (statements refuse them); an item of nothing else forms nothing.
    """

    def extract(self, episode: Episode) -> list[Candidate]:
        """Returns one candidate per structured item, in part order then item order."""
        candidates = []
        for part, belief_type, state, role in _PARTS:
            for item in getattr(episode, part):
                subject, statement = split_subject(plain_text(item))
                if statement:
                    candidates.append(Candidate(statement, belief_type, state, role, subject))
        return candidates
