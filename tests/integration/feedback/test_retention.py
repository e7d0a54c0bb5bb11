"""Two-tier trace retention: operator fields expire after the tuning window, user fields stay."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

from graphmem import GraphMem, InvalidInput
from graphmem.settings import ConnectionSettings
from graphmem.store.ids import new_id
from graphmem.store.traces import OPERATOR_FIELDS
from tests.integration.conftest import Graph

LEXICAL = {"project": "p", "arms": ["lexical"]}
USER_FIELDS = {"query", "item_ids", "bands", "rendered_sha256", "cited_ids", "at", "surface"}


def _age(graph: Graph, trace_id: str, days: int) -> None:
    graph.query(
        "MATCH (t:RecallTrace {id: $id}) SET t.at = t.at - duration({days: $d})",
        id=trace_id,
        d=days,
    )


def _stored(graph: Graph, trace_id: str) -> dict[str, object]:
    return dict(
        graph.query("MATCH (t:RecallTrace {id: $id}) RETURN t {.*} AS t", id=trace_id)[0]["t"]
    )


def test_sweep_strips_operator_fields_and_keeps_user_fields(memory: GraphMem, graph: Graph) -> None:
    belief = memory.believe("Invoices round half-up", project="p", type="fact")
    old = memory.recall("invoices round", **LEXICAL)
    memory.cite(old.trace_id, [belief])
    recent = memory.recall("invoices round", **LEXICAL)
    full = memory.get_trace(old.trace_id, operator=True)
    assert set(OPERATOR_FIELDS) <= set(full) and "operator_expired_at" not in full
    _age(graph, old.trace_id, 31)

    # Past the window the operator fields read as expired even before a sweep.
    unswept = memory.get_trace(old.trace_id, operator=True)
    assert not set(OPERATOR_FIELDS) & set(unswept)
    assert unswept["operator_expired_at"] == unswept["at"] + timedelta(days=30)  # type: ignore[operator]
    assert set(OPERATOR_FIELDS) <= set(_stored(graph, old.trace_id))

    swept = memory.sweep_traces()
    assert swept.traces == 1 and swept.hints == 0
    stored = _stored(graph, old.trace_id)
    assert not set(OPERATOR_FIELDS) & set(stored)
    assert set(stored) >= USER_FIELDS and stored["cited_ids"] == [belief]
    shown = memory.get_trace(old.trace_id, operator=True)
    assert shown["operator_expired_at"] is not None
    assert {k: v for k, v in shown.items() if k != "operator_expired_at"} == memory.get_trace(
        old.trace_id
    )
    assert shown["rendered_sha256"] == old.rendered_sha256
    assert set(OPERATOR_FIELDS) <= set(memory.get_trace(recent.trace_id, operator=True))

    assert memory.sweep_traces().traces == 0  # nothing left to strip
    assert memory.sweep_traces("0d").traces == 1  # every trace: the recent one too
    assert "operator_expired_at" in memory.get_trace(recent.trace_id, operator=True)


def test_sweep_touches_only_this_principals_traces(
    make_memory: Callable[..., GraphMem], graph: Graph
) -> None:
    alice, bob = make_memory(), make_memory()
    bobs = bob.recall("anything", **LEXICAL).trace_id
    bob.get_trace(bobs)
    assert alice.sweep_traces("0d").traces == 0
    assert set(OPERATOR_FIELDS) <= set(bob.get_trace(bobs, operator=True))


def test_older_than_must_be_a_span(memory: GraphMem) -> None:
    for bad in ("30", "a month", "-1d", timedelta(days=-1), "999999w"):  # last: before year 1
        with pytest.raises(InvalidInput) as caught:
            memory.sweep_traces(bad)
        assert caught.value.field == "older_than"


def test_the_window_is_a_setting(
    neo4j_settings: ConnectionSettings,
    tmp_path: Path,
    graph: Graph,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GRAPHMEM_TRACE_OPERATOR_DAYS", "2")
    with GraphMem(
        f"test-{new_id()}",
        uri=neo4j_settings.uri,
        user=neo4j_settings.user,
        password=neo4j_settings.password,
        data_dir=tmp_path,
    ) as memory:
        assert memory.feedback.operator_window == timedelta(days=2)
        trace_id = memory.recall("anything", **LEXICAL).trace_id
        memory.get_trace(trace_id)
        _age(graph, trace_id, 3)
        assert memory.sweep_traces().traces == 1
