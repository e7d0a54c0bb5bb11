"""Session-start snapshots (docs/recall.md): what to load before an agent starts work.

No query: the live beliefs that apply in a project. About two thirds of the item cap
goes to durable ones (preferences, and whatever a user stated), the rest to the
others, each group by read-time weight, then newest, then id; the item cap is
primary and the token cap a backstop. Both choices are pure functions here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from graphmem.models import Authority, BeliefType, RecallItem, SnapshotProfile
from graphmem.store.recall import BeliefCandidate

SNAPSHOT_PROFILES: dict[SnapshotProfile, tuple[int, int]] = {
    SnapshotProfile.INTERACTIVE: (40, 1_500),
    SnapshotProfile.LONG: (80, 3_000),
    SnapshotProfile.CHILD: (15, 500),
}
"""Snapshot profile → (item cap, token cap) (docs/recall.md)."""
SNAPSHOT_DURABLE_SHARE = 2 / 3
"""About two thirds of a snapshot goes to durable preferences and user beliefs."""
SNAPSHOT_POOL = 2_000
"""Newest live beliefs a snapshot chooses from."""
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class Weighted:
    """A snapshot candidate and its read-time weight."""

    belief: BeliefCandidate
    weight: float

    @property
    def durable(self) -> bool:
        """Preferences and user-stated beliefs come first."""
        belief = self.belief
        return belief.type is BeliefType.PREFERENCE or belief.authority is Authority.USER


def choose(candidates: Sequence[Weighted], item_cap: int) -> list[BeliefCandidate]:
    """At most ``item_cap`` beliefs: about two thirds durable ones, then the others.

    A share one group cannot fill goes to the other. Within each group: weight, then
    newest, then id.
    """
    order = sorted(candidates, key=lambda c: (-c.weight, -c.belief.seq, c.belief.id))
    durable = [c.belief for c in order if c.durable]
    others = [c.belief for c in order if not c.durable]
    share = round(item_cap * SNAPSHOT_DURABLE_SHARE)
    chosen = durable[:share] + others[: item_cap - min(share, len(durable))]
    chosen += durable[share : share + item_cap - len(chosen)]
    return chosen


def within_tokens(
    items: Sequence[RecallItem], render: Callable[[list[RecallItem]], str], token_cap: int
) -> list[RecallItem]:
    """The longest prefix of ``items`` whose rendering fits ``token_cap``.

    A token is taken as about four characters.
    """
    kept: list[RecallItem] = []
    for item in items:
        if len(render([*kept, item])) / CHARS_PER_TOKEN > token_cap:
            break
        kept.append(item)
    return kept
