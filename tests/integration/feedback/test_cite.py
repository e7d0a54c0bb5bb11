"""Citation feedback on a real Neo4j: recorded on the trace, restarts decay, never confidence."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from graphmem import GraphMem, InvalidInput, NotFound
from graphmem.recall.ranking import DECAY_HALF_LIFE
from tests.integration.conftest import Graph

LEXICAL = {"project": "p", "arms": ["lexical"]}


def _cited_seq(graph: Graph, belief_id: str) -> int | None:
    rows = graph.query("MATCH (b:Belief {id: $id}) RETURN b.cited_seq AS s", id=belief_id)
    return rows[0]["s"]


def _filler(memory: GraphMem, n: int = DECAY_HALF_LIFE) -> None:
    """A half-life of later writes (each belief one generation)."""
    memory.believe_many(
        {"statement": f"Filler note {i}", "project": "p", "type": "fact"} for i in range(n)
    )


def test_cite_records_on_the_trace_once_and_is_idempotent(memory: GraphMem, graph: Graph) -> None:
    first = memory.believe("Invoices round half-up", project="p", type="fact")
    second = memory.believe("Invoices round to whole cents", project="p", type="fact")
    result = memory.recall("how do invoices round?", **LEXICAL)
    order = [item.id for item in result.items]
    assert set(order) == {first, second}

    cited = memory.cite(result.trace_id, [order[1]])  # flushes the background writer first
    assert cited.trace_id == result.trace_id
    assert cited.cited == cited.added == [order[1]]
    assert cited.refreshed == order  # the one cited and the one ranked above it
    assert cited.cited_seq is not None
    trace = memory.get_trace(result.trace_id)
    assert trace["cited_ids"] == [order[1]] and trace["cited_at"] is not None
    seqs = {i: _cited_seq(graph, i) for i in order}

    again = memory.cite(result.trace_id, [order[1], order[1]])
    assert again.added == [] and again.refreshed == [] and again.cited == [order[1]]
    assert {i: _cited_seq(graph, i) for i in order} == seqs  # nothing written
    assert memory.get_trace(result.trace_id)["cited_at"] == trace["cited_at"]

    both = memory.cite(result.trace_id, [order[0]])
    assert both.added == [order[0]] and both.cited == order  # a union, in the trace's order
    assert memory.get_trace(result.trace_id)["cited_ids"] == order


def test_cite_refuses_what_the_trace_did_not_return(make_memory: Callable[..., GraphMem]) -> None:
    alice, bob = make_memory(), make_memory()
    shown = alice.believe("Invoices round half-up", project="p", type="fact")
    hidden = alice.believe("Deploys happen on Fridays", project="p", type="fact")
    trace_id = alice.recall("invoices round", **LEXICAL).trace_id

    with pytest.raises(InvalidInput) as caught:
        alice.cite(trace_id, [shown, hidden])
    assert caught.value.field == "item_ids" and caught.value.rule == "returned"
    assert caught.value.details["ids"] == [hidden]
    assert hidden in caught.value.message and trace_id in caught.value.message
    assert "cited_ids" not in alice.get_trace(trace_id)  # all or nothing

    for bad, rule in (
        ([], "required"),
        (["not-an-id"], "id"),
        ([{"id": shown}], "id"),  # not a string: refused before it is hashed
        (shown, "list"),
        ([f"01a230d6-c141-7277-87f4-{n:012x}" for n in range(201)], "max_items"),
    ):
        with pytest.raises(InvalidInput) as caught:
            alice.cite(trace_id, bad)
        assert (caught.value.field, caught.value.rule) == ("item_ids", rule)
    with pytest.raises(InvalidInput) as caught:
        alice.cite("nope", [shown])
    assert caught.value.field == "trace_id"

    with pytest.raises(NotFound) as missing:
        alice.cite("01a230d6-c141-7277-87f4-60f7710e9f0a", [shown])
    assert missing.value.field == "trace_id"

    bobs = bob.recall("anything at all", **LEXICAL).trace_id
    bob.get_trace(bobs)  # written
    with pytest.raises(NotFound):
        alice.cite(bobs, [shown])  # another principal's trace does not exist for alice
    with pytest.raises(NotFound):
        bob.cite(trace_id, [shown])


def test_citation_restarts_decay(memory: GraphMem) -> None:
    old = memory.believe("The cache TTL is five minutes", project="p", type="fact", confidence=0.9)
    _filler(memory)
    new = memory.believe("The cache TTL is five minutes", project="p", type="fact", confidence=0.8)
    plain = {i.id: i.score for i in memory.recall("cache TTL", **LEXICAL).items}
    decayed = memory.recall("cache TTL", decay="exponential", **LEXICAL)
    assert [i.id for i in decayed.items] == [new, old]  # half a weight for the old one
    assert decayed.items[1].score < plain[old] * 0.51

    memory.cite(decayed.trace_id, [old])
    for mode in ("exponential", "linear"):
        after = memory.recall("cache TTL", decay=mode, **LEXICAL)
        assert [i.id for i in after.items] == [old, new]
        assert after.items[0].score == plain[old]  # cited: as fresh as just stated
    assert memory.get_belief(old).confidence == 0.9


def test_a_cited_wrong_belief_never_outranks_a_more_confident_correct_one(
    memory: GraphMem,
) -> None:
    right = memory.believe(
        "The cache TTL is five minutes", project="p", type="fact", confidence=0.9
    )
    wrong = memory.believe(
        "The cache TTL is nine minutes", project="p", type="fact", confidence=0.6
    )
    _filler(memory)  # both are a half-life old
    start = memory.recall("cache TTL", **LEXICAL)
    assert [i.id for i in start.items] == [right, wrong]
    scores = {i.id: i.score for i in start.items}
    assert scores[wrong] / scores[right] == pytest.approx(0.6 / 0.9)  # equal relevance

    for mode in ("exponential", "linear", "none", "exponential", "linear"):
        answer = memory.recall("cache TTL", decay=mode, **LEXICAL)
        assert [i.id for i in answer.items] == [right, wrong]
        memory.cite(answer.trace_id, [wrong])  # the agent keeps using the wrong one
        for check in ("none", "linear", "exponential"):
            ranked = memory.recall("cache TTL", decay=check, **LEXICAL).items
            assert [i.id for i in ranked] == [right, wrong], check
            assert ranked[1].score <= scores[wrong]  # never above its undecayed weight
    assert memory.get_belief(wrong).confidence == 0.6
    assert memory.get_belief(right).confidence == 0.9
    assert {i.id: i.score for i in memory.recall("cache TTL", **LEXICAL).items} == scores


def test_episodes_and_snapshots_can_be_cited(memory: GraphMem, graph: Graph) -> None:
    episode = memory.remember({"project": "p", "title": "Fixed the flaky invoice test"})
    found = memory.search_episodes("flaky invoice test", project="p", arms=["lexical"])
    assert [i.id for i in found.items] == [episode]
    cited = memory.cite(found.trace_id, [episode])
    assert cited.added == [episode] and cited.refreshed == [] and cited.cited_seq is None
    assert memory.get_trace(found.trace_id)["cited_ids"] == [episode]

    belief = memory.believe("Prefer small pull requests", project="p", type="preference")
    snapshot = memory.snapshot("p")
    assert [i.id for i in snapshot.items] == [belief]
    assert memory.cite(snapshot.trace_id, [belief]).refreshed == [belief]
    assert _cited_seq(graph, belief) is not None


def test_concurrent_citations_of_one_trace_keep_every_id(
    make_memory: Callable[..., GraphMem],
) -> None:
    first = make_memory()
    others = [make_memory(first.principal) for _ in range(3)]
    ids = [first.believe(f"Invoices round rule {n}", project="p", type="fact") for n in range(4)]
    trace_id = first.recall("invoices round rule", **LEXICAL).trace_id
    first.get_trace(trace_id)
    clients = [first, *others]
    barrier = threading.Barrier(len(clients))

    def cite(client: GraphMem, belief_id: str) -> None:
        barrier.wait()
        client.cite(trace_id, [belief_id])

    threads = [
        threading.Thread(target=cite, args=(client, belief_id))
        for client, belief_id in zip(clients, ids, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(first.get_trace(trace_id)["cited_ids"]) == set(ids)  # type: ignore[arg-type]
