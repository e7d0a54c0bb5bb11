"""Formation spends exactly one seq per event: no gaps inside a consolidation."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from graphmem import GraphMem
from tests.integration.conftest import Graph


def _episode(project: str, **parts: Any) -> dict[str, Any]:
    return {"project": project, "kind": "task", "title": "work", **parts}


def test_each_consolidation_uses_contiguous_seqs(memory: GraphMem, graph: Graph) -> None:
    parts = {
        "observations": ["The build caches wheels", "CI runners have two cores"],
        "inferences": ["Flaky tests come from timing", "Retries hide slow fixtures"],
        "decisions": ["Pin the resolver version"],
    }
    for project in ("shop", "billing", "shop"):
        memory.consolidate(memory.remember(_episode(project, **parts)))
    again = memory.consolidate(memory.remember(_episode("shop", **parts)))
    assert memory.consolidate(again.episode_id).already_consolidated
    events = graph.query(
        "MATCH (e:MemoryEvent {principal: $p}) WHERE e.type <> 'episode.created' "
        "RETURN e.seq AS seq, e.at AS at, e.type AS type",
        p=memory.principal,
    )
    by_commit: dict[Any, list[int]] = defaultdict(list)
    for event in events:
        by_commit[event["at"]].append(event["seq"])
    assert len(by_commit) == 4  # one commit per episode; the repeated run wrote nothing
    for seqs in by_commit.values():
        assert sorted(seqs) == list(range(min(seqs), max(seqs) + 1))
    types = {event["type"] for event in events}
    assert {"belief.reinforced", "belief.activated", "belief.promoted"} <= types
