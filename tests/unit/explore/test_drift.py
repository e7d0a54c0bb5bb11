"""anchor_changes: which beliefs' anchor states differ between two snapshots."""

from __future__ import annotations

from graphmem.explore.drift import anchor_changes
from graphmem.models import AnchorState
from graphmem.store.overview import AnchoredBelief


def _belief(belief_id: str) -> AnchoredBelief:
    return AnchoredBelief(
        belief_id, "api", f"python:a.py::{belief_id}#function", "h", ("api",), belief_id
    )


def test_only_changed_states_of_beliefs_seen_both_times_by_id() -> None:
    v, d = AnchorState.VERIFIED, AnchorState.DRIFTED
    before = {"b": (_belief("b"), v), "a": (_belief("a"), d), "c": (_belief("c"), v)}
    after = {
        "b": (_belief("b"), d),
        "a": (_belief("a"), v),
        "c": (_belief("c"), v),
        "n": (_belief("n"), v),
    }
    changed = anchor_changes("api", before, after)
    assert [(c.belief_id, c.before, c.after) for c in changed] == [("a", d, v), ("b", v, d)]
    assert all(c.project == "api" and c.anchor_key.endswith("#function") for c in changed)
