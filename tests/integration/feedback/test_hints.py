"""Misses as a formation signal: repeated misses queue one hint; formation consumes it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from graphmem import GraphMem, HintState
from tests.integration.conftest import Graph

LEXICAL = {"project": "p", "arms": ["lexical"]}
DEPLOY = "What is the deploy day?"


def _miss(memory: GraphMem, query: str = DEPLOY, times: int = 1) -> None:
    for _ in range(times):
        assert memory.recall(query, **LEXICAL).items == []


def _hint_nodes(graph: Graph, principal: str) -> list[dict[str, object]]:
    return graph.query(
        "MATCH (h:FormationHint {principal: $p}) RETURN h.state AS state, h.subject AS subject,"
        " h.misses AS misses ORDER BY h.created_at",
        p=principal,
    )


def _age_traces(graph: Graph, principal: str, days: float) -> None:
    graph.query(
        "MATCH (t:RecallTrace {principal: $p}) SET t.at = t.at - duration({seconds: $s})",
        p=principal,
        s=int(days * 86_400),
    )


def test_repeated_misses_queue_exactly_one_hint_per_subject(memory: GraphMem, graph: Graph) -> None:
    memory.believe("Invoices round half-up", project="p", type="fact")
    _miss(memory, DEPLOY, 2)
    assert memory.hints() == []  # fewer than three: nothing
    assert memory.recall("how do invoices round?", **LEXICAL).items  # a hit is no miss
    assert memory.recall(DEPLOY, as_of=datetime.now(UTC), **LEXICAL).items == []  # the past
    memory.search_episodes(DEPLOY, project="p", arms=["lexical"])  # episodes: not counted
    assert memory.hints() == []

    _miss(memory, "what is the  DEPLOY day")  # the same subject, asked differently
    [hint] = memory.hints()
    assert hint.subject == "what is the deploy day" and hint.query == "what is the  DEPLOY day"
    assert hint.misses == 3 and hint.state is HintState.OPEN
    assert hint.first_at <= hint.last_at <= hint.created_at < hint.expires_at
    assert hint.expires_at - hint.created_at == timedelta(days=30)

    _miss(memory, DEPLOY, 2)
    _miss(memory, "cache ttl", 2)  # another subject, below the threshold
    [again] = memory.hints()
    assert again.id == hint.id and again.misses == 5
    assert _hint_nodes(graph, memory.principal) == [
        {"state": "open", "subject": "what is the deploy day", "misses": 5}
    ]
    trace = memory.get_trace(memory.recall(DEPLOY, **LEXICAL).trace_id)
    assert trace["miss_subject"] == "what is the deploy day"


def test_misses_outside_the_window_do_not_count(memory: GraphMem, graph: Graph) -> None:
    _miss(memory, DEPLOY, 2)
    memory.hints()  # written
    _age_traces(graph, memory.principal, 8)  # a week and a day ago
    _miss(memory)
    _miss(memory)
    assert memory.hints() == []  # two in the window
    _miss(memory)
    [hint] = memory.hints()
    assert hint.misses == 3


def test_consolidation_consumes_a_hint(memory: GraphMem) -> None:
    _miss(memory, DEPLOY, 3)
    [hint] = memory.hints()
    on_it = memory.remember(
        {"project": "p", "title": "Release planning", "decisions": ["deploy day: Fridays"]}
    )
    other = memory.remember({"project": "p", "title": "Lunch", "observations": ["Soup"]})
    [outcome] = memory.consolidate_hints()
    assert outcome.hint_id == hint.id and outcome.episodes == [on_it]
    [formed] = outcome.formed
    assert memory.get_belief(formed).statement == "Fridays"
    assert memory.unconsolidated() == [other]  # only the episodes on the subject

    assert memory.hints() == []
    [consumed] = memory.hints(include_consumed=True)
    assert consumed.state is HintState.CONSUMED and consumed.consumed_by == "consolidate"
    assert consumed.episodes == [on_it] and consumed.formed == [formed]
    assert consumed.consumed_at is not None
    assert memory.consolidate_hints() == []  # nothing open any more
    assert [i.id for i in memory.recall(DEPLOY, **LEXICAL).items] == [formed]


def test_a_consumed_hint_is_consumed_whatever_came_of_it_and_misses_restart(
    memory: GraphMem,
) -> None:
    _miss(memory, "quantum flux capacitor", 3)
    [outcome] = memory.consolidate_hints()
    assert outcome.results == []  # no episode on it: consumed all the same
    _miss(memory, "quantum flux capacitor")
    assert memory.hints() == []  # the misses before the consumption are spent
    _miss(memory, "quantum flux capacitor", 2)
    [reopened] = memory.hints()
    assert reopened.id != outcome.hint_id and reopened.misses == 3


def test_rederive_consumes_hints(memory: GraphMem) -> None:
    episode = memory.remember(
        {"project": "p", "title": "Release cadence review", "decisions": ["deploy day: Fridays"]},
        consolidate=True,
    )
    _miss(memory, "what is the release cadence", 3)
    [hint] = memory.hints()
    summary = memory.rederive("v2")
    assert summary.hints == 1 and summary.episodes == 1
    [consumed] = memory.hints(include_consumed=True)
    assert consumed.id == hint.id and consumed.consumed_by == "rederive"
    assert consumed.episodes == [episode]  # on the subject by its title
    assert len(consumed.formed) == 1  # the decision, formed again under v2
    assert memory.rederive("v3").hints == 0


def test_hints_expire(memory: GraphMem, graph: Graph) -> None:
    _miss(memory, DEPLOY, 3)
    [hint] = memory.hints()
    memory.remember({"project": "p", "title": "Deploys", "decisions": ["deploy day: Fridays"]})
    graph.query(
        "MATCH (h:FormationHint {id: $id}) SET h.expires_at = datetime() - duration('PT1S')",
        id=hint.id,
    )
    assert memory.hints() == [] and memory.hints(include_consumed=True) == []
    assert memory.consolidate_hints() == []  # an expired hint is not consumed
    assert len(memory.unconsolidated()) == 1

    swept = memory.sweep_traces()
    assert swept.hints == 1
    assert _hint_nodes(graph, memory.principal) == []


def test_an_expired_hint_gives_way_to_a_new_one(memory: GraphMem, graph: Graph) -> None:
    _miss(memory, DEPLOY, 3)
    [hint] = memory.hints()
    graph.query(
        "MATCH (h:FormationHint {id: $id}) SET h.expires_at = datetime() - duration('PT1S')",
        id=hint.id,
    )
    _miss(memory)  # four misses in the window: the expired one closes, a new one opens
    [fresh] = memory.hints()
    assert fresh.id != hint.id and fresh.misses == 4
    states = sorted(str(row["state"]) for row in _hint_nodes(graph, memory.principal))
    assert states == ["expired", "open"]


def test_concurrent_writers_open_exactly_one_hint(
    make_memory: Callable[..., GraphMem], graph: Graph
) -> None:
    first = make_memory()
    clients = [first, *(make_memory(first.principal) for _ in range(4))]
    _miss(first, DEPLOY, 2)
    assert first.hints() == []
    barrier = threading.Barrier(len(clients))
    failures: list[BaseException] = []

    def miss(client: GraphMem) -> None:
        try:
            _miss(client)
            barrier.wait()
            client.hints()  # every writer flushes at once
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=miss, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    nodes = _hint_nodes(graph, first.principal)
    assert nodes == [{"state": "open", "subject": "what is the deploy day", "misses": 7}]
