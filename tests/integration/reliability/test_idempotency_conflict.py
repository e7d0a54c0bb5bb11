"""An idempotency key names one write: a retry returns its id, another payload conflicts.

Covers every keyed write (remember, remember_many, believe, believe_many, supersede),
two rows of one batch, nodes written before payload digests, the CLI, MCP, and a race
of processes that share keys but not statements.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from typer.testing import CliRunner

from graphmem import GraphMem, IdempotencyConflict, WriteConflict
from graphmem.cli import app
from graphmem.settings import ConnectionSettings
from tests.integration.conftest import Graph, race
from tests.integration.serve.conftest import stdio_client

ROOT = Path(__file__).resolve().parents[3]
PROCESSES = 8
KEYS = 20


def _assert_conflict(error: IdempotencyConflict, key: str, existing_id: str) -> None:
    assert isinstance(error, WriteConflict) and not error.retryable
    assert (error.field, error.rule) == ("idempotency_key", "same_payload")
    assert error.details["key"] == key and error.details["existing_id"] == existing_id
    assert repr(key) in error.message
    assert error.to_dict()["type"] == "IdempotencyConflict"


def test_the_same_payload_again_returns_the_first_id(memory: GraphMem, graph: Graph) -> None:
    episode = {"project": "p", "title": "t", "observations": ["o"], "idempotency_key": "e"}
    first_episode = memory.remember(episode)
    assert memory.remember({**episode, "kind": "session"}) == first_episode  # the default
    assert memory.remember_many([episode, episode]) == [first_episode] * 2
    first = memory.believe(
        "X", project="p", type="fact", evidence=[first_episode], idempotency_key="b"
    )
    again = memory.believe(
        "X",
        project="p",
        type="fact",
        confidence=0.5,
        evidence=[{"episode_id": first_episode, "role": "explicit"}],
        idempotency_key="b",
    )
    assert again == first
    row = {"statement": "X", "project": "p", "type": "fact", "evidence": [first_episode]}
    assert memory.believe_many([{**row, "idempotency_key": "b"}]) == [first]
    successor = memory.supersede(first, {"statement": "Y", "idempotency_key": "s"}, reason="r")
    assert memory.supersede(first, {"statement": "Y", "idempotency_key": "s"}, "r") == successor
    assert graph.count(memory.principal, "Episode") == 1
    assert graph.count(memory.principal, "Belief") == 2


def test_an_episode_key_with_another_payload_conflicts(memory: GraphMem, graph: Graph) -> None:
    first = memory.remember({"project": "p", "title": "t", "idempotency_key": "e"})
    with pytest.raises(IdempotencyConflict) as caught:
        memory.remember({"project": "p", "title": "other", "idempotency_key": "e"})
    _assert_conflict(caught.value, "e", first)
    with pytest.raises(IdempotencyConflict) as caught:
        memory.remember_many(
            [
                {"project": "p", "title": "new", "idempotency_key": "e2"},
                {"project": "p", "title": "t", "outcome": "failed", "idempotency_key": "e"},
            ]
        )
    _assert_conflict(caught.value, "e", first)
    assert caught.value.row == 1
    assert graph.count(memory.principal, "Episode") == 1  # the batch wrote nothing


def test_a_belief_key_with_another_payload_conflicts(memory: GraphMem, graph: Graph) -> None:
    first = memory.believe("X", project="p", type="fact", idempotency_key="b")
    for changed in ({"statement": "Y"}, {"confidence": 0.9}, {"subject": "s"}):
        fields: dict[str, Any] = {"statement": "X", "project": "p", "type": "fact", **changed}
        with pytest.raises(IdempotencyConflict) as caught:
            memory.believe(**fields, idempotency_key="b")
        _assert_conflict(caught.value, "b", first)
    with pytest.raises(IdempotencyConflict) as caught:
        memory.believe_many(
            [{"statement": "Y", "project": "p", "type": "fact", "idempotency_key": "b"}]
        )
    _assert_conflict(caught.value, "b", first)
    assert caught.value.row == 0
    assert graph.count(memory.principal, "Belief") == 1


def test_a_supersede_key_with_another_payload_conflicts(memory: GraphMem, graph: Graph) -> None:
    old = memory.believe("A", project="p", type="fact")
    new = memory.supersede(old, {"statement": "B", "idempotency_key": "s"}, reason="r")
    for other_statement, other_reason in (("C", "r"), ("B", "another reason")):
        with pytest.raises(IdempotencyConflict) as caught:
            memory.supersede(
                old, {"statement": other_statement, "idempotency_key": "s"}, other_reason
            )
        _assert_conflict(caught.value, "s", new)
    elsewhere = memory.believe("D", project="p", type="fact")
    with pytest.raises(IdempotencyConflict) as caught:  # the key of another supersession
        memory.supersede(elsewhere, {"statement": "B", "idempotency_key": "s"}, reason="r")
    _assert_conflict(caught.value, "s", new)
    assert memory.get_belief(elsewhere).is_live
    assert [entry.belief.id for entry in memory.history(old)] == [old, new]


def test_a_key_is_not_shared_between_believe_and_supersede(memory: GraphMem) -> None:
    stated = memory.believe("A", project="p", type="fact", idempotency_key="k")
    with pytest.raises(IdempotencyConflict) as caught:
        memory.supersede(stated, {"statement": "A", "idempotency_key": "k"}, reason="r")
    _assert_conflict(caught.value, "k", stated)
    old = memory.believe("B", project="p", type="fact")
    successor = memory.supersede(old, {"statement": "C", "idempotency_key": "k2"}, reason="r")
    with pytest.raises(IdempotencyConflict) as caught:
        memory.believe("C", project="p", type="fact", idempotency_key="k2")
    _assert_conflict(caught.value, "k2", successor)


def test_two_rows_of_one_batch_sharing_a_key_must_agree(memory: GraphMem, graph: Graph) -> None:
    row = {"statement": "X", "project": "p", "type": "fact", "idempotency_key": "b"}
    first, second = memory.believe_many([row, row])
    assert first == second
    with pytest.raises(IdempotencyConflict) as caught:
        memory.believe_many(
            [{**row, "idempotency_key": "c"}, {**row, "statement": "Y", "idempotency_key": "c"}]
        )
    assert (caught.value.row, caught.value.details["key"]) == (1, "c")
    assert "existing_id" not in caught.value.details  # the first row is not written yet
    episode = {"project": "p", "title": "t", "idempotency_key": "e"}
    with pytest.raises(IdempotencyConflict) as caught:
        memory.remember_many([episode, {**episode, "title": "u"}])
    assert (caught.value.row, caught.value.details["key"]) == (1, "e")
    assert graph.count(memory.principal, "Belief") == 1
    assert graph.count(memory.principal, "Episode") == 0


def test_a_node_written_before_digests_accepts_any_payload(memory: GraphMem, graph: Graph) -> None:
    """Nodes from before payload digests cannot be compared: their key is honoured as before."""
    first = memory.believe("X", project="p", type="fact", idempotency_key="old")
    episode = memory.remember({"project": "p", "title": "t", "idempotency_key": "old"})
    graph.query(
        "MATCH (n {principal: $p}) WHERE n:Belief OR n:Episode REMOVE n.idempotency_digest",
        p=memory.principal,
    )
    assert memory.believe("Y", project="p", type="fact", idempotency_key="old") == first
    assert memory.remember({"project": "p", "title": "u", "idempotency_key": "old"}) == episode


def test_cli_prints_the_conflict_and_exits_with_its_code(neo4j_env: dict[str, str]) -> None:
    runner = CliRunner()
    believe = ["believe", "--project", "p", "--type", "fact", "--idempotency-key", "cli-k"]
    first = runner.invoke(app, [*believe[:1], "X", *believe[1:], "--json"], env=neo4j_env)
    assert first.exit_code == 0
    first_id = json.loads(first.stdout)["id"]
    again = runner.invoke(app, [*believe[:1], "X", *believe[1:]], env=neo4j_env)
    assert (again.exit_code, again.stdout.strip()) == (0, first_id)

    other = runner.invoke(app, [*believe[:1], "Y", *believe[1:]], env=neo4j_env)
    assert other.exit_code == IdempotencyConflict.exit_code == 10
    assert other.stderr.startswith("error: idempotency_key: 'cli-k'")
    assert "Traceback" not in other.stderr and other.stdout == ""
    as_json = runner.invoke(app, [*believe[:1], "Y", *believe[1:], "--json"], env=neo4j_env)
    assert as_json.exit_code == 10
    error = json.loads(as_json.stderr)["error"]
    assert error["type"] == "IdempotencyConflict" and error["retryable"] is False
    assert (error["field"], error["rule"], error["key"]) == (
        "idempotency_key",
        "same_payload",
        "cli-k",
    )
    assert error["existing_id"] == first_id


def test_mcp_tools_return_the_conflict_as_a_tool_error(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    env = {**neo4j_env, "PYTHONPATH": str(ROOT)}  # the server runs this tree's graphmem

    async def scenario() -> None:
        async with stdio_client(env, tmp_path) as mcp:
            args = {"statement": "X", "project": "p", "type": "fact", "idempotency_key": "m"}
            first = await mcp.call_tool("believe", args)
            assert not first.is_error
            belief_id = first.structured_content["belief_id"]
            assert (await mcp.call_tool("believe", args)).structured_content[
                "belief_id"
            ] == belief_id
            other = await mcp.call_tool("believe", {**args, "statement": "Y"})
            assert other.is_error
            error = other.structured_content["error"]
            assert (error["type"], error["key"], error["existing_id"]) == (
                "IdempotencyConflict",
                "m",
                belief_id,
            )
            assert other.content[0].text.startswith("IdempotencyConflict: idempotency_key: 'm'")

    anyio.run(scenario)


def _racer(
    settings: ConnectionSettings, principal: str, worker: int, start: Any, results: Any
) -> None:
    """Writes every key once: even keys with a shared statement, odd ones with its own."""
    outcomes: list[tuple[str, str, str]] = []
    with GraphMem(
        principal, uri=settings.uri, user=settings.user, password=settings.password, migrate=False
    ) as memory:
        start.wait(timeout=60)
        for index in range(KEYS):
            key = f"race-{index}"
            statement = f"shared {index}" if index % 2 == 0 else f"worker {worker} says {index}"
            try:
                got = memory.believe(statement, project="p", type="fact", idempotency_key=key)
            except IdempotencyConflict as error:
                assert error.details["key"] == key
                outcomes.append(("conflict", statement, str(error.details["existing_id"])))
            else:
                outcomes.append(("id", statement, got))
    results.put(outcomes)


def test_processes_racing_for_keys_get_their_own_id_or_a_conflict(
    neo4j_settings: ConnectionSettings, make_memory: Callable[..., GraphMem], graph: Graph
) -> None:
    principal = make_memory().principal
    reported = race(
        _racer, [(neo4j_settings, principal, worker) for worker in range(PROCESSES)], timeout=300
    )
    rows = graph.query(
        "MATCH (b:Belief {principal: $p}) RETURN b.id AS id, b.statement AS statement, "
        "b.idempotency_key AS key",
        p=principal,
    )
    assert sorted(row["key"] for row in rows) == sorted(f"race-{i}" for i in range(KEYS))
    statement_of = {row["id"]: row["statement"] for row in rows}
    winners: dict[str, int] = {}
    for outcomes in reported:
        assert len(outcomes) == KEYS
        for outcome, statement, node_id in outcomes:
            if outcome == "id":  # nobody gets back the id of a statement they did not send
                assert statement_of[node_id] == statement
                winners[statement] = winners.get(statement, 0) + 1
            else:  # the conflict names the node that holds the key, with another statement
                assert statement_of[node_id] != statement
    for index in range(KEYS):
        if index % 2 == 0:  # one payload: every caller got the one id
            assert winners[f"shared {index}"] == PROCESSES
        else:  # one writer's payload holds the key; the others were told so
            own = [winners.get(f"worker {worker} says {index}", 0) for worker in range(PROCESSES)]
            assert sorted(own) == [0] * (PROCESSES - 1) + [1]
