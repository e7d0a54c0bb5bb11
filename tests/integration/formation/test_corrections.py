"""Corrections on a real Neo4j: each kind's effect in recall, and after re-derivation."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from graphmem import GraphMem, InvalidInput, StateConflict
from graphmem.cli import app
from tests.integration.conftest import Graph


def _formed(memory: GraphMem, project: str, **parts: Any) -> str:
    episode = memory.remember({"project": project, "title": "work", **parts})
    (belief_id,) = memory.consolidate(episode).created
    return belief_id


def _recalled(memory: GraphMem, query: str, project: str | None = None) -> list[str]:
    return [item.statement for item in memory.recall(query, project=project).items]


def test_not_true_retires(memory: GraphMem, graph: Graph) -> None:
    wrong = _formed(memory, "a", observations=["The queue is backed by Redis"])
    result = memory.correct(wrong, "not_true")
    assert _recalled(memory, "what backs the queue") == []
    assert memory.get_belief(wrong).state == "retired"
    rejection = graph.query(
        "MATCH (r:Rejection {id: $id})-[:REJECTS]->(b) RETURN r.statement AS s, b.id AS b",
        id=result.rejection_id,
    )
    assert rejection == [{"s": "The queue is backed by Redis", "b": wrong}]


def test_changed_supersedes_at_user_authority(memory: GraphMem) -> None:
    wrong = _formed(memory, "a", observations=["The queue is backed by Redis"])
    result = memory.correct(wrong, "changed", statement="The queue is backed by RabbitMQ")
    assert result.new_belief_id is not None
    successor = memory.get_belief(result.new_belief_id)
    assert (successor.statement, successor.authority) == ("The queue is backed by RabbitMQ", "user")
    assert _recalled(memory, "what backs the queue") == ["The queue is backed by RabbitMQ"]


def test_not_here_hides_it_in_one_project_only(memory: GraphMem) -> None:
    lesson = memory.believe(
        "Prefer tabs for indentation", project="a", type="lesson", confidence=0.9
    )
    assert _recalled(memory, "indentation tabs", "b") == ["Prefer tabs for indentation"]
    memory.correct(lesson, "not_here", project="b")
    assert _recalled(memory, "indentation tabs", "b") == []
    assert _recalled(memory, "indentation tabs", "a") == ["Prefer tabs for indentation"]
    assert memory.get_belief(lesson).portability == "contextual"  # one step down
    assert memory.snapshot("b").items == []


def test_unspecified_flags_and_down_weights_never_retires(memory: GraphMem) -> None:
    doubted = memory.believe("Builds take ten minutes", project="a", type="fact", confidence=0.9)
    other = memory.believe("Builds take twelve minutes", project="a", type="fact", confidence=0.6)
    assert _recalled(memory, "how long do builds take", "a")[0] == "Builds take ten minutes"
    memory.correct(doubted)
    assert memory.get_belief(doubted).is_live
    ranked = [item.id for item in memory.recall("how long do builds take", project="a").items]
    assert ranked == [other, doubted]  # 0.9 * 0.5 < 0.6


def test_bad_corrections_are_typed_errors(memory: GraphMem) -> None:
    belief = memory.believe("x", project="a", type="fact")
    with pytest.raises(InvalidInput) as missing:
        memory.correct(belief, "changed")
    assert missing.value.field == "statement"
    with pytest.raises(InvalidInput) as no_project:
        memory.correct(belief, "not_here")
    assert no_project.value.field == "project"
    with pytest.raises(InvalidInput) as bad_kind:
        memory.correct(belief, "wrong")
    assert bad_kind.value.field == "kind"
    memory.correct(belief, "not_true")
    with pytest.raises(StateConflict):
        memory.correct(belief, "not_true")


def test_corrections_and_tombstones_survive_rederivation(memory: GraphMem) -> None:
    episodes = [
        {"observations": ["The queue is backed by Redis"]},  # not true
        {"observations": ["The cache TTL is 5 minutes"]},  # changed
        {"observations": ["Use the EU region for storage"]},  # not here (project b)
        {"observations": ["The build needs 8 GB of RAM"]},  # unspecified
        {"observations": ["The admin password is hunter2"]},  # forgotten
        {"observations": ["Logs are kept for 30 days"]},  # untouched
    ]
    ids = [_formed(memory, "a", **parts) for parts in episodes]
    memory.correct(ids[0], "not_true")
    memory.correct(ids[1], "changed", statement="The cache TTL is 10 minutes")
    memory.correct(ids[2], "not_here", project="b")
    memory.correct(ids[3], "unspecified")
    memory.forget(ids[4])

    summary = memory.rederive("policy-2")

    assert summary.episodes == len(episodes) and summary.policy_version == "policy-2"
    live = {b.statement: b for b in memory.list_beliefs()}
    assert set(live) == {
        "The cache TTL is 10 minutes",
        "Use the EU region for storage",
        "The build needs 8 GB of RAM",
        "Logs are kept for 30 days",
    }
    assert "The queue is backed by Redis" not in live  # not true: not re-formed
    assert "The admin password is hunter2" not in live  # forgotten: not re-formed
    region = live["Use the EU region for storage"]
    assert region.id != ids[2] and region.portability == "local"  # contextual, one down
    assert _recalled(memory, "which region for storage", "b") == []
    assert region.id in [i.id for i in memory.recall("region for storage", project="a").items]
    build = live["The build needs 8 GB of RAM"]
    assert build.id != ids[3]
    logs = live["Logs are kept for 30 days"]
    assert logs.id != ids[5]  # new ids, same content
    assert memory.rederive("policy-3").retired == 3  # the re-formed ones, not the user's


def test_cli_correct_and_rederive(memory: GraphMem, neo4j_env: dict[str, str]) -> None:
    runner = CliRunner()
    env = {**neo4j_env, "GRAPHMEM_PRINCIPAL": memory.principal}
    belief = _formed(memory, "a", observations=["Deploys need two approvals"])
    done = runner.invoke(app, ["correct", belief, "--kind", "not_true", "--json"], env=env)
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["kind"] == "not_true"
    done = runner.invoke(app, ["rederive", "--policy", "v2", "--json"], env=env)
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["episodes"] == 1
    assert memory.list_beliefs() == []


@pytest.mark.parametrize("gate", ["on", "off"])
def test_rejection_gate_replays_corrections(memory: GraphMem, gate: str) -> None:
    wrong = _formed(memory, "a", observations=["The queue is backed by Redis"])
    memory.correct(wrong, "not_true")
    again = memory.remember(
        {"project": "a", "title": "w", "observations": ["The queue is backed by Redis"]}
    )
    policy = {"rejection_gate": gate == "on"}
    result = memory.consolidate(again, policy=policy)
    if gate == "on":
        assert result.created == [] and [r.gate for r in result.rejected] == ["rejection"]
    else:  # without the gate the corrected content comes back
        assert len(result.created) == 1
