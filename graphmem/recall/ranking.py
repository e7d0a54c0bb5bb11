"""Read-time ranking (docs/recall.md): weights reorder, never store, never hide (rule 2).

score = relevance * confidence * state_w * anchor_weight * scope_w * decay (* 0.5 when
disputed by an unspecified correction, * 0.5 when stale), with a total order by (score
desc, id asc);
relevance is the fused score of :mod:`~graphmem.recall.fusion`.

There is no relevance floor: each arm cuts its own weak matches (the lexical arm needs
a matching word, the semantic arm a cosine of 0.2) and offers at most 50. A floor would
drop what a single arm alone found.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from graphmem.models import BeliefState, Decay, Portability, Scope

STATE_WEIGHT: dict[BeliefState, float] = {
    BeliefState.ACTIVE: 1.0,
    BeliefState.PROVISIONAL: 0.6,
}
CROSS_PROJECT_WEIGHT: dict[Portability, float] = {
    Portability.PORTABLE: 0.7,
    Portability.CONTEXTUAL: 0.4,
    Portability.LOCAL: 0.0,
}
DECAY_HALF_LIFE = 10_000
"""Exponential decay: the weight halves every this many generations (seqs)."""
DECAY_HORIZON = 20_000
"""Linear decay: the weight falls from 1 to 0 over this many generations (seqs)."""
DISPUTED_WEIGHT = 0.5
"""A belief the user flagged as wrong without saying how (an unspecified correction)."""
STALE_WEIGHT = 0.5
"""A formed belief expiry demoted: no episode confirmed it for the stale window. Read
from the stored ``stale_since`` that ``GraphMem.expire`` writes, never from the clock."""


def scope_weight(
    project: str | None, origins: Sequence[str], scope: Scope, portability: Portability
) -> float:
    """The weight of a belief asked about in ``project``.

    Same project (any origin) or principal scope: 1.0. Another project: portable 0.7,
    contextual 0.4 (a local belief never gets here: the hard filters keep it in its
    project). ``project`` None asks across all projects: 1.0.
    """
    if project is None or scope is Scope.PRINCIPAL or project in origins:
        return 1.0
    return CROSS_PROJECT_WEIGHT[portability]


def decay_weight(mode: Decay, age: int) -> float:
    """The decay factor of a belief ``age`` generations old.

    Age counts from when it was stated or last supported by an episode to the newest
    write. A pure function of the seq difference, never of wall-clock time, so the same store
    gives the same order. ``none`` is 1.0 (the default); a decayed belief is still
    returned, only lower (rule 2).
    """
    age = max(age, 0)
    if mode is Decay.LINEAR:
        return max(0.0, 1.0 - age / DECAY_HORIZON)
    if mode is Decay.EXPONENTIAL:
        return float(0.5 ** (age / DECAY_HALF_LIFE))
    return 1.0


@dataclass(frozen=True)
class Weighed:
    """One candidate's read-time factors."""

    id: str
    relevance: float
    """The fused score of the arms."""
    confidence: float
    state: BeliefState
    anchor_weight: float
    scope_weight: float
    decay: float = 1.0
    disputed: bool = False
    stale: bool = False

    @property
    def score(self) -> float:
        """The product of the factors."""
        return (
            self.relevance
            * self.confidence
            * STATE_WEIGHT[self.state]
            * self.anchor_weight
            * self.scope_weight
            * self.decay
            * (DISPUTED_WEIGHT if self.disputed else 1.0)
            * (STALE_WEIGHT if self.stale else 1.0)
        )


def rank(candidates: Sequence[Weighed]) -> list[Weighed]:
    """Orders weighed candidates by (score desc, id asc): a total order."""
    return sorted(candidates, key=lambda c: (-c.score, c.id))


def by_score(scores: Mapping[str, float]) -> list[str]:
    """Ids by (score desc, id asc): how episodes, which carry no weights, are ranked."""
    return sorted(scores, key=lambda node_id: (-scores[node_id], node_id))


def confidence_band(confidence: float) -> str:
    """High ≥ 0.75 > medium ≥ 0.4 > low (docs/recall.md)."""
    if confidence >= 0.75:
        return "high"
    if confidence >= 0.4:
        return "medium"
    return "low"
