"""Trace records: misses grouped per subject, and the sweep removing every operator field."""

from __future__ import annotations

from datetime import UTC, datetime

from graphmem.store.cypher import cypher
from graphmem.store.traces import OPERATOR_FIELDS, OPERATOR_PREFIX, TraceRecord, miss_rows


def _trace(query: str, miss_subject: str | None) -> TraceRecord:
    return TraceRecord(
        id="t",
        surface="belief",
        query=query,
        project=None,
        as_of=None,
        k=10,
        arms=["lexical"],
        decay="none",
        item_ids=[],
        bands=[],
        dropped=0,
        blocked=0,
        withheld=0,
        flagged=0,
        rendered_sha256="0" * 64,
        at=datetime(2026, 12, 1, tzinfo=UTC),
        operator_arm_ranks="{}",
        operator_latency_ms="{}",
        operator_policy_version="recall-v1",
        operator_view_lag=0,
        miss_subject=miss_subject,
    )


def test_a_batch_counts_each_missed_subject_once_with_its_latest_query() -> None:
    batch = [
        _trace("Deploy day?", "deploy day"),
        _trace("found something", None),
        _trace("deploy  day", "deploy day"),
        _trace("cache ttl", "cache ttl"),
    ]
    rows = {row["subject"]: row for row in miss_rows(batch)}
    assert set(rows) == {"deploy day", "cache ttl"}
    assert rows["deploy day"]["count"] == 2 and rows["deploy day"]["query"] == "deploy  day"
    assert rows["cache ttl"]["count"] == 1
    assert rows["deploy day"]["id"] != rows["cache ttl"]["id"]
    assert miss_rows([_trace("x", None)]) == []


def test_the_sweep_removes_every_operator_field_and_nothing_else() -> None:
    sweep = cypher("trace/sweep")
    assert OPERATOR_FIELDS  # arm ranks, latencies, policy version
    removed = sweep.split("REMOVE", 1)[1].split("\n", 1)[0]
    assert {name.strip().removeprefix("t.") for name in removed.split(",")} == set(OPERATOR_FIELDS)
    assert all(name.startswith(OPERATOR_PREFIX) for name in OPERATOR_FIELDS)
