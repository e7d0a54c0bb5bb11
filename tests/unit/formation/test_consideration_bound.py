"""The consideration bound: at most N candidates, each part represented, order kept."""

from __future__ import annotations

from graphmem.formation.extract import Candidate
from graphmem.formation.gates import consideration_bound
from graphmem.models import BeliefState, BeliefType, EvidenceRole


def _candidates(role: EvidenceRole, count: int) -> list[Candidate]:
    return [
        Candidate(f"{role.value} {i}", BeliefType.FACT, BeliefState.ACTIVE, role)
        for i in range(count)
    ]


def test_small_episodes_are_considered_whole() -> None:
    held: list[str] = []
    candidates = _candidates(EvidenceRole.OBSERVATION, 5)
    kept = consideration_bound(candidates, 16, lambda c, gate, *_: held.append(gate))
    assert kept == candidates and held == []


def test_large_episodes_take_turns_over_parts_in_order() -> None:
    held: list[str] = []
    roles = list(EvidenceRole)[:3]
    candidates = [c for role in roles for c in _candidates(role, 10)]
    kept = consideration_bound(candidates, 7, lambda c, gate, *_: held.append(gate))
    assert len(kept) == 7 and held == ["cap"] * 23
    assert [c for c in candidates if c in kept] == kept  # original order
    assert {c.role for c in kept} == set(roles)
    assert [c.statement for c in kept if c.role is roles[0]] == [
        f"{roles[0].value} {i}" for i in range(3)
    ]
