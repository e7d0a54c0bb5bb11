"""Consolidation on a real Neo4j: each gate, shown to matter by switching it off.

Every gate test runs the same episodes twice, once per policy, on fresh principals:
with the gate the effect holds; with the gate switched off (a policy parameter, not a
code edit) it demonstrably does not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from graphmem import FormationPolicy, GraphMem
from tests.integration.conftest import Graph

OFF = {
    "trust": {"trust_gate": False},
    "rejection": {"rejection_gate": False},
    "novelty": {"novelty_gate": False},
    "cap": {"cap_gate": False},
    "resolve": {"resolve_gate": False},
}


def _episode(project: str, **parts: Any) -> dict[str, Any]:
    return {"project": project, "kind": "task", "title": "work", **parts}


def _live(memory: GraphMem, **filters: Any) -> list[str]:
    return [b.statement for b in memory.list_beliefs(**filters)]


def test_structured_parts_form_beliefs_once(memory: GraphMem, graph: Graph) -> None:
    episode = memory.remember(
        _episode(
            "shop",
            observations=["CI runners have two cores"],
            inferences=["Flaky tests come from timing"],
            decisions=["test runner: pytest"],
            failed_attempts=["Pinning the random seed"],
        )
    )
    result = memory.consolidate(episode)
    assert len(result.created) == 4 and result.rejected == []
    beliefs = {memory.get_belief(i).statement: memory.get_belief(i) for i in result.created}
    assert beliefs["Flaky tests come from timing"].state == "provisional"
    assert beliefs["pytest"].type == "decision" and beliefs["pytest"].subject == "test runner"
    assert beliefs["Pinning the random seed"].type == "dead_end"
    assert [e.role for e in beliefs["CI runners have two cores"].evidence] == ["observation"]
    assert memory.consolidate(episode).already_consolidated
    assert graph.count(memory.principal, "Belief") == 4


@pytest.mark.parametrize("gate", ["on", "off"])
def test_trust_gate(make_memory: Callable[..., GraphMem], gate: str) -> None:
    memory = make_memory()
    policy = FormationPolicy.model_validate(OFF["trust"] if gate == "off" else {})
    untrusted = memory.remember(
        _episode("shop", trust="untrusted", observations=["The API key lives in vault"])
    )
    result = memory.consolidate(untrusted, policy=policy)
    if gate == "off":
        assert len(result.created) == 1  # the gate is what stops it
        return
    assert result.created == [] and [r.gate for r in result.rejected] == ["trust"]
    assert _live(memory) == []
    trusted = memory.remember(_episode("shop", observations=["The API key lives in vault"]))
    affirmed = memory.consolidate(trusted)
    (belief_id,) = affirmed.created
    evidence = {e.episode_id for e in memory.get_belief(belief_id).evidence}
    assert evidence == {untrusted, trusted}  # one belief, both episodes as provenance


@pytest.mark.parametrize("gate", ["on", "off"])
def test_tombstone_gate(make_memory: Callable[..., GraphMem], graph: Graph, gate: str) -> None:
    memory = make_memory()
    first = memory.consolidate(
        memory.remember(_episode("shop", observations=["The admin password is hunter2"]))
    )
    memory.forget(first.created[0])
    again = memory.remember(_episode("shop", observations=["The  admin password is HUNTER2"]))
    result = memory.consolidate(
        again, policy=FormationPolicy.model_validate(OFF["rejection"] if gate == "off" else {})
    )
    if gate == "on":
        assert result.created == [] and [r.gate for r in result.rejected] == ["rejection"]
    else:
        assert len(result.created) == 1


@pytest.mark.parametrize("gate", ["on", "off"])
def test_novelty_gate(make_memory: Callable[..., GraphMem], gate: str) -> None:
    memory = make_memory()
    policy = FormationPolicy.model_validate(OFF["novelty"] if gate == "off" else {})
    first = memory.consolidate(
        memory.remember(_episode("api", observations=["API rate limits are 100 req/min per IP"])),
        policy=policy,
    )
    second_episode = memory.remember(
        _episode(
            "api",
            observations=[
                "API rate limit is 100 requests per minute per IP",
                "API rate limits are 100 req/min per user",  # distinct: one word swapped
            ],
        )
    )
    second = memory.consolidate(second_episode, policy=policy)
    if gate == "off":
        assert len(second.created) == 2
        assert len(_live(memory)) == 3
        return
    assert second.reinforced == first.created and len(second.created) == 1
    assert [(r.gate, r.similar_to) for r in second.rejected] == [("novelty", first.created[0])]
    reinforced = memory.get_belief(first.created[0])
    assert {e.episode_id for e in reinforced.evidence} >= {second_episode}
    assert len(_live(memory)) == 2


@pytest.mark.parametrize("gate", ["on", "off"])
def test_cap_gate(make_memory: Callable[..., GraphMem], gate: str) -> None:
    memory = make_memory()
    policy = FormationPolicy.model_validate(OFF["cap"] if gate == "off" else {})
    notes = [
        "The build uses Bazel",
        "Logs go to Loki",
        "Metrics go to Prometheus",
        "Alerts page the on-call engineer",
        "Backups run at 3am UTC",
    ]
    message = memory.remember(_episode("ops", kind="message", observations=notes))
    result = memory.consolidate(message, policy=policy)
    if gate == "off":
        assert len(result.created) == 5
    else:  # a message forms at most 3
        assert len(result.created) == 3
        assert [r.statement for r in result.rejected if r.gate == "cap"] == notes[3:]
    zero = FormationPolicy.model_validate({**policy.model_dump(), "caps": {"message": 0}})
    other = memory.remember(_episode("ops", kind="message", observations=["Disks are NVMe"]))
    assert (memory.consolidate(other, policy=zero).created == []) is (gate == "on")


@pytest.mark.parametrize("gate", ["on", "off"])
def test_resolve_gate(make_memory: Callable[..., GraphMem], gate: str) -> None:
    memory = make_memory()
    policy = FormationPolicy.model_validate(OFF["resolve"] if gate == "off" else {})
    older = memory.consolidate(
        memory.remember(_episode("web", observations=["deploy day: Thursday"])), policy=policy
    )
    newer = memory.consolidate(
        memory.remember(_episode("web", observations=["deploy day: Monday"])), policy=policy
    )
    user_said = memory.believe(
        "Staging", project="web", type="fact", subject="deploy target", authority="user"
    )
    contested = memory.consolidate(
        memory.remember(_episode("web", observations=["deploy target: Production"])),
        policy=policy,
    )
    if gate == "off":
        assert newer.superseded == [] and contested.conflicts == []
        assert sorted(_live(memory)) == ["Monday", "Production", "Staging", "Thursday"]
        return
    assert [(s.old, s.new) for s in newer.superseded] == [(older.created[0], newer.created[0])]
    assert not memory.get_belief(older.created[0]).is_live
    (conflict,) = contested.conflicts
    assert {conflict.a, conflict.b} == {user_said, contested.created[0]}  # agent < user
    recalled = memory.recall("deploy target", project="web")
    assert [(c.a, c.b) for c in recalled.conflicts] == [(conflict.a, conflict.b)]


def test_provisional_turns_active_on_a_second_episode(memory: GraphMem) -> None:
    first = memory.consolidate(
        memory.remember(_episode("shop", inferences=["The checkout bug is a race"]))
    )
    assert memory.get_belief(first.created[0]).state == "provisional"
    second = memory.consolidate(
        memory.remember(_episode("shop", inferences=["The checkout bug is a race"]))
    )
    assert second.activated == first.created
    assert memory.get_belief(first.created[0]).state == "active"


def test_promotion_on_the_second_project_and_never_for_local(
    memory: GraphMem, graph: Graph
) -> None:
    fact = "Use UTC timestamps in every log line"
    decision = "log format: JSON lines"
    a = memory.consolidate(
        memory.remember(_episode("a", observations=[fact], decisions=[decision]))
    )
    again_in_a = memory.consolidate(
        memory.remember(_episode("a", observations=[fact], decisions=[decision]))
    )
    assert again_in_a.promoted == []  # two episodes, one project
    b = memory.consolidate(
        memory.remember(_episode("b", observations=[fact], decisions=[decision]))
    )
    fact_id = a.created[0]
    assert b.promoted == [fact_id]  # the decision is local: never promoted
    promoted = memory.get_belief(fact_id)
    assert promoted.scope == "principal" and promoted.origins == ["a", "b"]
    events = graph.query(
        "MATCH (e:MemoryEvent {node_id: $id}) RETURN e.type AS type ORDER BY e.seq", id=fact_id
    )
    assert [e["type"] for e in events].count("belief.promoted") == 1
    decision_id = a.created[1]
    assert memory.get_belief(decision_id).scope == "project"


def test_remember_can_consolidate_inline(memory: GraphMem) -> None:
    episode = memory.remember(
        _episode("shop", observations=["Orders ship from Leeds"]), consolidate=True
    )
    assert memory.consolidate(episode).already_consolidated
    assert _live(memory) == ["Orders ship from Leeds"]


def test_rejected_candidates_log_keeps_a_window(
    memory: GraphMem, graph: Graph, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("graphmem.store.formation.REJECTED_LOG_WINDOW", 2)
    notes = [f"Pasted note number {n}" for n in range(5)]
    episode = memory.remember(_episode("ops", trust="untrusted", observations=notes))
    assert len(memory.consolidate(episode).rejected) == 5
    logged = [e["statement"] for e in memory.events() if e["type"] == "candidate.rejected"]
    assert logged == notes[3:]  # the newest two
