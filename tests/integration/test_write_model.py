"""The write model: provenance, supersession, idempotency, batches, events."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from graphmem import GraphMem, IdempotencyConflict, InvalidInput, NotFound, StateConflict
from tests.integration.conftest import Graph


def test_belief_with_evidence_has_one_derived_from_per_episode(
    memory: GraphMem, graph: Graph
) -> None:
    first = memory.remember({"project": "billing", "title": "first"})
    second = memory.remember({"project": "billing", "title": "second"})
    belief_id = memory.believe(
        "Invoices round half-even",
        project="billing",
        type="fact",
        evidence=[first, {"episode_id": second, "role": "observation"}],
    )
    belief = memory.get_belief(belief_id)
    assert sorted(e.episode_id for e in belief.evidence) == sorted([first, second])
    assert {e.role for e in belief.evidence} == {"explicit", "observation"}
    edges = graph.query(
        "MATCH (b:Belief {id: $id})-[:DERIVED_FROM]->(e:Episode) RETURN e.id AS episode_id",
        id=belief_id,
    )
    assert sorted(r["episode_id"] for r in edges) == sorted([first, second])


def test_supersede_sets_validity_links_and_history_from_either_end(memory: GraphMem) -> None:
    first = memory.believe(
        "Rounding is half-even", project="billing", type="decision", subject="rounding"
    )
    second = memory.supersede(first, "Rounding is half-up", reason="finance said so")
    third = memory.supersede(
        second,
        {"statement": "Rounding is half-up, per FIN-212", "confidence": 0.9},
        reason="ticket found",
    )
    old = memory.get_belief(first)
    assert old.valid_to is not None and old.superseded_at is not None
    assert old.superseded_by == second
    new = memory.get_belief(second)
    assert new.supersedes == first
    assert new.valid_from == old.valid_to
    assert (new.type, new.subject, new.project) == ("decision", "rounding", "billing")
    assert memory.get_belief(third).confidence == 0.9

    expected = [first, second, third]
    for start in (first, second, third):
        chain = memory.history(start)
        assert [entry.belief.id for entry in chain] == expected
    reasons = [entry.reason for entry in memory.history(first)]
    assert reasons == ["finance said so", "ticket found", None]
    live = [b.id for b in memory.list_beliefs(project="billing")]
    assert live == [third]


def test_superseding_a_superseded_belief_is_a_state_conflict(memory: GraphMem) -> None:
    first = memory.believe("A", project="p", type="fact")
    memory.supersede(first, "B", reason="r")
    with pytest.raises(StateConflict) as caught:
        memory.supersede(first, "C", reason="r")
    assert caught.value.field == "old_id"


def test_supersede_cannot_raise_portability_above_the_new_types_ceiling(
    memory: GraphMem,
) -> None:
    first = memory.believe("Use tabs", project="p", type="preference")
    with pytest.raises(InvalidInput) as caught:
        memory.supersede(
            first,
            {"statement": "Use spaces", "type": "decision", "portability": "portable"},
            reason="r",
        )
    assert caught.value.field == "portability"
    assert memory.get_belief(first).is_live


def test_retried_write_with_same_idempotency_key_leaves_one_node(
    memory: GraphMem, graph: Graph
) -> None:
    episode = {"project": "p", "title": "t", "idempotency_key": "ep-1"}
    assert memory.remember(episode) == memory.remember(episode)
    first = memory.believe("X", project="p", type="fact", idempotency_key="b-1")
    again = memory.believe("X", project="p", type="fact", idempotency_key="b-1")
    assert first == again
    batch = memory.believe_many(
        [
            {"statement": "Y", "project": "p", "type": "fact", "idempotency_key": "b-2"},
            {"statement": "Y", "project": "p", "type": "fact", "idempotency_key": "b-2"},
            {"statement": "X", "project": "p", "type": "fact", "idempotency_key": "b-1"},
        ]
    )
    assert batch[0] == batch[1] and batch[2] == first
    assert graph.count(memory.principal, "Belief") == 2
    assert graph.count(memory.principal, "Episode") == 1
    assert graph.count(memory.principal, "MemoryEvent") == 3


def test_batch_with_one_invalid_row_names_it_and_writes_nothing(
    memory: GraphMem, graph: Graph
) -> None:
    rows = [{"statement": f"fact {i}", "project": "p", "type": "fact"} for i in range(5)]
    rows[3] = {**rows[3], "confidence": 1.5}
    with pytest.raises(InvalidInput) as caught:
        memory.believe_many(rows)
    assert (caught.value.row, caught.value.field) == (3, "confidence")
    assert "row 3" in str(caught.value)
    assert graph.count(memory.principal, "Belief") == 0


def test_batch_citing_a_missing_episode_writes_nothing(memory: GraphMem, graph: Graph) -> None:
    episode = memory.remember({"project": "p", "title": "t"})
    missing = "01a22bde-0000-7000-8000-000000000000"
    rows = [
        {"statement": "ok", "project": "p", "type": "fact", "evidence": [episode]},
        {"statement": "bad", "project": "p", "type": "fact", "evidence": [episode, missing]},
    ]
    with pytest.raises(NotFound) as caught:
        memory.believe_many(rows)
    assert (caught.value.row, caught.value.field) == (1, "evidence[1].episode_id")
    assert graph.count(memory.principal, "Belief") == 0
    assert graph.count(memory.principal, "MemoryEvent") == 1  # the episode's only


def test_every_write_appends_an_event_with_increasing_seq(memory: GraphMem, graph: Graph) -> None:
    episode = memory.remember({"project": "p", "title": "t"})
    first = memory.believe("A", project="p", type="fact", evidence=[episode])
    memory.supersede(first, "B", reason="r")
    events = graph.query(
        "MATCH (e:MemoryEvent {principal: $p}) RETURN e.type AS type, e.seq AS seq ORDER BY e.seq",
        p=memory.principal,
    )
    assert [e["type"] for e in events] == [
        "episode.created",
        "belief.created",
        "belief.created",
        "belief.superseded",
    ]
    seqs = [e["seq"] for e in events]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    assert memory.get_episode(episode).seq == seqs[0]


def test_episode_parent_links_part_of(memory: GraphMem) -> None:
    parent = memory.remember({"project": "p", "title": "task", "kind": "task"})
    child = memory.remember({"project": "p", "title": "run", "kind": "run", "parent": parent})
    assert memory.get_episode(child).parent == parent
    with pytest.raises(NotFound) as caught:
        memory.remember(
            {"project": "p", "title": "x", "parent": "01a22bde-0000-7000-8000-000000000000"}
        )
    assert caught.value.field == "parent"


def test_list_beliefs_filters(memory: GraphMem) -> None:
    memory.believe("A", project="one", type="fact")
    memory.believe("B", project="two", type="lesson")
    memory.believe("C", project="two", type="fact", state="provisional")
    assert [b.statement for b in memory.list_beliefs(project="two")] == ["B", "C"]
    assert [b.statement for b in memory.list_beliefs(type="fact")] == ["A", "C"]
    assert [b.statement for b in memory.list_beliefs(state="provisional")] == ["C"]
    assert [b.statement for b in memory.list_beliefs(scope="project", limit=1)] == ["A"]
    with pytest.raises(InvalidInput) as caught:
        memory.list_beliefs(type="opinion")
    assert caught.value.field == "type"


def test_supersede_retried_with_its_key_returns_the_first_result(memory: GraphMem) -> None:
    old = memory.believe("A", project="p", type="fact")
    first = memory.supersede(old, {"statement": "B", "idempotency_key": "s-1"}, reason="r")
    again = memory.supersede(old, {"statement": "B", "idempotency_key": "s-1"}, reason="r")
    assert first == again
    assert [entry.belief.id for entry in memory.history(old)] == [old, first]
    other = memory.believe("C", project="p", type="fact")
    with pytest.raises(IdempotencyConflict) as caught:
        memory.supersede(other, {"statement": "D", "idempotency_key": "s-1"}, reason="r")
    assert (caught.value.field, caught.value.rule) == ("idempotency_key", "same_payload")


def test_concurrent_supersessions_of_one_belief_leave_one_winner(
    make_memory: Callable[..., GraphMem],
) -> None:
    owner = make_memory()
    old = owner.believe("A", project="p", type="fact")
    rivals = [make_memory(owner.principal) for _ in range(4)]
    outcomes: list[str] = []

    def attempt(client: GraphMem, index: int) -> None:
        try:
            outcomes.append(client.supersede(old, f"B{index}", reason="race"))
        except StateConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=attempt, args=(c, i)) for i, c in enumerate(rivals)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    winners = [outcome for outcome in outcomes if outcome != "conflict"]
    assert len(outcomes) == 4 and len(winners) == 1
    assert [entry.belief.id for entry in owner.history(old)] == [old, winners[0]]


def test_successor_inherits_what_it_does_not_set(memory: GraphMem) -> None:
    old = memory.believe(
        "Tabs",
        project="p",
        type="preference",
        portability="local",
        authority="user",
        state="provisional",
        subject="indent",
        confidence=0.8,
    )
    same_type = memory.get_belief(
        memory.supersede(old, {"statement": "Spaces", "type": "preference"}, reason="r")
    )
    assert (
        same_type.portability,
        same_type.authority,
        same_type.state,
        same_type.subject,
        same_type.confidence,
    ) == ("local", "user", "provisional", "indent", 0.8)
    retyped = memory.get_belief(
        memory.supersede(
            same_type.id, {"statement": "Use 4 spaces", "type": "decision"}, reason="r"
        )
    )
    assert retyped.portability == "local"  # decision's default ceiling


def test_duplicate_evidence_makes_one_edge(memory: GraphMem, graph: Graph) -> None:
    episode = memory.remember({"project": "p", "title": "t"})
    belief = memory.believe("A", project="p", type="fact", evidence=[episode, episode])
    assert [e.episode_id for e in memory.get_belief(belief).evidence] == [episode]
    edges = graph.query("MATCH (:Belief {id: $id})-[r:DERIVED_FROM]->() RETURN r", id=belief)
    assert len(edges) == 1
