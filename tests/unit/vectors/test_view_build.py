"""A view built from empty turns approximate as it passes the threshold, not at the end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from graphmem.store.events import ViewEvent
from graphmem.vectors import views
from graphmem.vectors.hashed import HashedEmbedder
from graphmem.vectors.views import SemanticView, created_event


def _log(count: int) -> list[ViewEvent]:
    created = created_event("belief")
    return [
        ViewEvent(seq=s, type=created, node_seq=s, text=f"belief {s} about module {s % 97}")
        for s in range(1, count + 1)
    ]


def test_the_exact_index_never_grows_past_the_threshold_and_a_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(views, "SYNC_BATCH", 500)
    log = _log(5_000)
    copied_from: list[int] = []
    copy = views._approximate_copy

    def recording_copy(dim: int, index: Any, removed: set[int]) -> Any:
        copied_from.append(int(index.ntotal))
        return copy(dim, index, removed)

    monkeypatch.setattr(views, "_approximate_copy", recording_copy)

    def feed(after: int, types: Sequence[str], most: int) -> list[ViewEvent]:
        return [event for event in log if event.seq > after][:most]

    view = SemanticView(feed, "p", "belief", HashedEmbedder(), exact_max=1_000)
    assert view.sync() == 5_000

    assert copied_from == [1_500]  # once, the page that crossed 1,000; not all 5,000
    assert view.approximate and view.index.ntotal == 5_000
    query = HashedEmbedder().embed(["belief 4321 about module 53"])[0]
    assert view.search(query, 1)[0].seq == 4_321
