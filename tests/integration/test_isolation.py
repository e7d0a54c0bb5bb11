"""Reads as principal B never see principal A's nodes, through any read API."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graphmem import GraphMem, NotFound


def test_every_read_api_hides_other_principals(make_memory: Callable[..., GraphMem]) -> None:
    alice, bob = make_memory(), make_memory()
    episode = alice.remember({"project": "shared-name", "title": "alice's session"})
    belief = alice.believe("alice's secret", project="shared-name", type="fact", evidence=[episode])
    newer = alice.supersede(belief, "alice's newer secret", reason="r")

    with pytest.raises(NotFound):
        bob.get_episode(episode)
    for belief_id in (belief, newer):
        with pytest.raises(NotFound):
            bob.get_belief(belief_id)
        with pytest.raises(NotFound):
            bob.history(belief_id)
    assert bob.list_beliefs() == []
    assert bob.list_beliefs(project="shared-name", include_superseded=True) == []

    # Writes as bob cannot reach alice's nodes either.
    with pytest.raises(NotFound):
        bob.supersede(newer, "bob's takeover", reason="r")
    with pytest.raises(NotFound):
        bob.believe("bob cites alice", project="p", type="fact", evidence=[episode])
    with pytest.raises(NotFound):
        bob.remember({"project": "p", "title": "child", "parent": episode})

    # The same project name under bob is bob's own namespace.
    bob.believe("bob's fact", project="shared-name", type="fact")
    assert [b.statement for b in bob.list_beliefs(project="shared-name")] == ["bob's fact"]
    assert [b.statement for b in alice.list_beliefs(project="shared-name")] == [
        "alice's newer secret"
    ]


def test_idempotency_keys_are_per_principal(make_memory: Callable[..., GraphMem]) -> None:
    alice, bob = make_memory(), make_memory()
    first = alice.believe("A", project="p", type="fact", idempotency_key="same-key")
    second = bob.believe("A", project="p", type="fact", idempotency_key="same-key")
    assert first != second
    assert bob.get_belief(second).principal == bob.principal
