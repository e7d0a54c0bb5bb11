"""Formation's edge cases on a real Neo4j: the ones a review found broken once."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem import ConsolidationResult, FormationPolicy, GraphMem
from graphmem.formation import pipeline
from graphmem.store import formation as store_formation
from tests.integration.conftest import Graph


def _episode(project: str, **parts: Any) -> dict[str, Any]:
    return {"project": project, "kind": "task", "title": "work", **parts}


def _consolidated(memory: GraphMem, project: str, **parts: Any) -> ConsolidationResult:
    return memory.consolidate(memory.remember(_episode(project, **parts)))


def _formed(memory: GraphMem, project: str, item: str) -> str:
    (belief_id,) = _consolidated(memory, project, observations=[item]).created
    return belief_id


def _live(memory: GraphMem) -> list[str]:
    return sorted(b.statement for b in memory.list_beliefs())


def test_forgetting_a_correction_keeps_both_contents_out(memory: GraphMem) -> None:
    wrong = _formed(memory, "a", "The queue is backed by Redis")
    fixed = memory.correct(wrong, "changed", statement="The queue is backed by RabbitMQ")
    assert fixed.new_belief_id is not None
    memory.forget(fixed.new_belief_id)
    memory.rederive("v2")
    assert _live(memory) == []  # neither the wrong one nor the forgotten correction


def test_a_correction_of_a_correction_holds_after_rederive(memory: GraphMem) -> None:
    wrong = _formed(memory, "a", "The queue is backed by Redis")
    fixed = memory.correct(wrong, "changed", statement="The queue is backed by RabbitMQ")
    assert fixed.new_belief_id is not None
    memory.correct(fixed.new_belief_id, "not_true")
    memory.rederive("v2")
    assert _live(memory) == []


def test_a_contradicting_untrusted_candidate_affirms_nothing(memory: GraphMem) -> None:
    memory.consolidate(
        memory.remember(
            _episode("b", trust="untrusted", inferences=["The request timeout is 5 seconds"])
        )
    )
    trusted = _formed_inference(memory, "a", "The request timeout is 30 seconds")
    belief = memory.get_belief(trusted)
    assert (belief.state, belief.scope, len(belief.evidence)) == ("provisional", "project", 1)


def _formed_inference(memory: GraphMem, project: str, item: str) -> str:
    (belief_id,) = _consolidated(memory, project, inferences=[item]).created
    return belief_id


def test_novelty_and_forget_respect_the_subject(memory: GraphMem) -> None:
    deploy = _formed(memory, "a", "deploy day: Fridays")
    freeze = memory.consolidate(
        memory.remember(_episode("a", observations=["release freeze: Fridays"]))
    )
    assert len(freeze.created) == 1 and freeze.reinforced == []  # another slot, not a repeat
    memory.forget(deploy)
    again = _consolidated(memory, "a", observations=["deploy day: Fridays", "code freeze: Fridays"])
    assert [r.gate for r in again.rejected] == ["rejection"]  # only the forgotten subject
    assert "Fridays" in _live(memory)


def test_a_losing_candidate_does_not_take_the_slot(memory: GraphMem) -> None:
    user = memory.believe(
        "Fridays", project="a", type="fact", subject="deploy day", authority="user"
    )
    result = memory.consolidate(
        memory.remember(_episode("a", observations=["deploy day: Mondays", "deploy day: Tuesdays"]))
    )
    assert result.superseded == []
    assert {(c.a, c.b) for c in result.conflicts} == {
        tuple(sorted((user, new))) for new in result.created
    }


def test_dead_copies_do_not_hide_the_live_one(memory: GraphMem) -> None:
    _formed(memory, "a", "Deploys go out on Fridays")
    for version in range(12):  # each rederive retires a copy, which stays in the view
        memory.rederive(f"v{version}")
    _consolidated(memory, "a", observations=["Deploys go out on Fridays"])
    assert _live(memory) == ["Deploys go out on Fridays"]


def test_forget_removes_items_whatever_their_spacing(memory: GraphMem) -> None:
    episode = memory.remember(
        _episode("a", observations=["root  password:   tangerine-42", "vault pw: hunter2\n"])
    )
    unlabelled = memory.remember(_episode("b", trust="untrusted", observations=["Tangerine-42"]))
    for belief_id in memory.consolidate(episode).created:
        memory.forget(belief_id)
    assert memory.get_episode(episode).observations == []
    assert memory.get_episode(unlabelled).observations == []  # stated without the label


def test_a_stale_decision_is_made_again(make_memory: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    memory = make_memory()
    other = make_memory(memory.principal)
    holder = _formed(memory, "a", "deploy day: Fridays")
    real_commit = pipeline.commit_formation
    raced: list[str] = []

    def commit_after_a_rival(*args: Any) -> Any:
        if not raced:  # another writer supersedes the holder between decision and commit
            raced.append(other.supersede(holder, "Thursdays", reason="rival"))
        return real_commit(*args)

    monkeypatch.setattr(pipeline, "commit_formation", commit_after_a_rival)
    result = memory.consolidate(
        memory.remember(_episode("a", observations=["deploy day: Mondays"]))
    )
    assert [(s.old, s.new) for s in result.superseded] == [(raced[0], result.created[0])]
    assert _live(memory) == ["Mondays"]


def test_partial_caps_keep_the_other_defaults() -> None:
    caps = FormationPolicy.model_validate({"caps": {"session": 5}}).caps
    assert caps["session"] == 5 and caps["task"] == 10 and caps["message"] == 3


def test_untrusted_evidence_is_linked_once(memory: GraphMem, graph: Graph) -> None:
    untrusted = memory.remember(
        _episode(
            "a",
            trust="untrusted",
            observations=["The cache TTL is 60 seconds", "the cache TTL is 60 seconds"],
        )
    )
    memory.consolidate(untrusted)
    belief = _formed(memory, "a", "The cache TTL is 60 seconds")
    edges = graph.query(
        "MATCH (b:Belief {id: $id})-[d:DERIVED_FROM]->(e:Episode {id: $e}) RETURN count(d) AS n",
        id=belief,
        e=untrusted,
    )
    assert edges == [{"n": 1}]


def test_a_rederive_resets_in_pages_and_forms_it_all_again(
    memory: GraphMem, graph: Graph, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_formation, "RESET_PAGE", 2)  # 5 beliefs, 5 episodes: 3 pages
    statements = [f"Service {n} owns the {n} queue" for n in range(5)]
    for statement in statements:
        _formed(memory, "a", statement)
    before = _live(memory)

    summary = memory.rederive("v2")

    assert summary.retired == 5 and summary.episodes == 5
    assert _live(memory) == before == sorted(statements)
    assert memory.unconsolidated() == []
    log = [(event["seq"], event["type"]) for event in memory.events(limit=1_000)]
    retired = [seq for seq, kind in log if kind == "belief.retired"]
    (reset,) = [seq for seq, kind in log if kind == "formation.reset"]
    assert len(retired) == len(set(retired)) == 5 and max(retired) < reset
    assert graph.count(memory.principal, "Reservation") == 0
