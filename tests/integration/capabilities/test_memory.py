"""Memory on its own: episodes and beliefs, their life, and the errors that name fields."""

from __future__ import annotations

import pytest

from graphmem.capabilities.context import Context
from graphmem.capabilities.formation import Formation
from graphmem.capabilities.memory import Memory
from graphmem.errors import InvalidInput, NotFound, StateConflict


@pytest.fixture
def memory(context: Context) -> Memory:
    return Memory(context, Formation(context))


def test_an_episode_and_a_belief_derived_from_it(memory: Memory) -> None:
    episode_id = memory.remember(
        {"project": "billing", "title": "Fix rounding", "observations": ["floats drift"]}
    )
    assert memory.get_episode(episode_id).title == "Fix rounding"
    belief_id = memory.believe(
        "Invoices round half-even", project="billing", type="fact", evidence=[episode_id]
    )
    belief = memory.get_belief(belief_id)
    assert belief.statement == "Invoices round half-even"
    assert [e.episode_id for e in belief.evidence] == [episode_id]


def test_remember_can_consolidate_through_formation(memory: Memory) -> None:
    episode_id = memory.remember(
        {"project": "billing", "title": "CI run", "observations": ["The CI cache is per branch"]},
        consolidate=True,
    )
    assert memory.get_episode(episode_id).consolidated_at is not None


def test_supersede_retire_and_history(memory: Memory) -> None:
    first = memory.believe("Deploys run on Fridays", project="ops", type="fact")
    second = memory.supersede(first, "Deploys run on Thursdays", reason="moved")
    assert [entry.belief.id for entry in memory.history(first)] == [first, second]
    with pytest.raises(StateConflict):
        memory.retire(first, reason="superseded beliefs cannot retire")
    assert memory.retire(second, reason="no more deploys") is True
    assert memory.retire(second, reason="again") is False


def test_batches_are_all_or_nothing(memory: Memory) -> None:
    ids = memory.believe_many(
        [{"statement": f"fact {n}", "project": "p", "type": "fact"} for n in range(3)]
    )
    assert len(ids) == 3
    with pytest.raises(InvalidInput) as caught:
        memory.remember_many([{"project": "p", "title": "ok"}, {"project": "p"}])
    assert (caught.value.row, caught.value.field) == (1, "title")


def test_correct_and_forget(memory: Memory) -> None:
    wrong = memory.believe("The API is public", project="api", type="fact")
    assert memory.correct(wrong, "not_true").belief_id == wrong
    assert memory.get_belief(wrong).state == "retired"
    gone = memory.believe("Temporary note", project="api", type="fact")
    memory.forget(gone)
    with pytest.raises(NotFound) as caught:
        memory.get_belief(gone)
    assert caught.value.field == "belief_id"


def test_ids_are_checked_before_any_query(memory: Memory) -> None:
    with pytest.raises(InvalidInput) as caught:
        memory.get_episode("not-an-id")
    assert (caught.value.field, caught.value.rule) == ("episode_id", "id")
