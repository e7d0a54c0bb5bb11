"""`bench agents`' end check: what the agents acknowledged against what the graph holds."""

from __future__ import annotations

from graphmem.bench.agents import AgentOutcome, check_writes
from graphmem.store.bench import AgentsCheck


def _found(
    seqs: dict[str, int],
    *,
    events: int | None = None,
    written: int | None = None,
    copies: dict[str, int] | None = None,
    created_events: dict[str, int] | None = None,
) -> AgentsCheck:
    """A read-back of ``seqs`` (key: seq), each key once with one event unless told."""
    return AgentsCheck(
        events=len(seqs) if events is None else events,
        distinct_seqs=len(seqs),
        written=len(seqs) if written is None else written,
        copies=dict.fromkeys(seqs, 1) if copies is None else copies,
        seqs=dict(seqs),
        created_events=dict.fromkeys(seqs, 1) if created_events is None else created_events,
    )


def test_writes_all_there_once_and_in_order_pass() -> None:
    outcomes = [AgentOutcome(0, written=["a0", "a1"]), AgentOutcome(1, written=["b0", "b1"])]
    result = check_writes(_found({"a0": 1, "b0": 2, "a1": 3, "b1": 4}), outcomes)
    assert result["passed"] is True
    assert result["writes_acknowledged"] == result["writes_found"] == 4


def test_an_acknowledged_write_missing_from_the_graph_is_lost() -> None:
    found = _found({"a0": 1}, copies={"a0": 1, "a1": 0})
    result = check_writes(found, [AgentOutcome(0, written=["a0", "a1"])])
    assert result["passed"] is False
    assert result["lost"] == 1


def test_a_key_held_twice_is_a_duplicate() -> None:
    found = _found({"a0": 1}, copies={"a0": 2}, written=2, created_events={"a0": 2})
    result = check_writes(found, [AgentOutcome(0, written=["a0"])])
    assert result["passed"] is False
    assert result["duplicated"] == 1
    assert result["created_events_not_one"] == 1


def test_an_agent_whose_later_write_has_a_lower_seq_is_out_of_order() -> None:
    outcomes = [AgentOutcome(0, written=["a0", "a1"]), AgentOutcome(1, written=["b0"])]
    result = check_writes(_found({"a0": 5, "a1": 3, "b0": 4}), outcomes)
    assert result["passed"] is False
    assert result["agents_out_of_seq_order"] == [0]


def test_two_events_sharing_a_seq_fail_the_check() -> None:
    result = check_writes(_found({"a0": 1}, events=2), [AgentOutcome(0, written=["a0"])])
    assert result["passed"] is False


def test_a_write_in_the_graph_that_no_agent_acknowledged_fails_the_check() -> None:
    found = _found({"a0": 1, "x": 2})
    result = check_writes(found, [AgentOutcome(0, written=["a0"])])
    assert result["passed"] is False
    assert result["writes_found"] == 2
