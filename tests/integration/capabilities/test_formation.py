"""Formation on its own: consolidation, the queue of unconsolidated episodes, hints."""

from __future__ import annotations

import pytest

from graphmem.capabilities.context import Context
from graphmem.capabilities.formation import Formation
from graphmem.capabilities.memory import Memory
from graphmem.errors import InvalidInput, NotFound
from graphmem.store.ids import new_id


@pytest.fixture
def formation(context: Context) -> Formation:
    return Formation(context)


def test_consolidate_forms_beliefs_once(context: Context, formation: Formation) -> None:
    memory = Memory(context, formation)
    episode_id = memory.remember(
        {
            "project": "billing",
            "title": "Flaky invoice test",
            "observations": ["Decimal built from floats drifts"],
            "failed_attempts": ["pinning the random seed"],
        }
    )
    assert formation.unconsolidated() == [episode_id]
    result = formation.consolidate(episode_id)
    assert len(result.created) == 2
    formed = {memory.get_belief(i).type for i in result.created}
    assert formed == {"fact", "dead_end"}
    assert formation.unconsolidated() == []
    assert formation.consolidate(episode_id).already_consolidated


def test_consolidate_names_the_missing_episode(formation: Formation) -> None:
    with pytest.raises(NotFound) as caught:
        formation.consolidate(new_id())
    assert caught.value.field == "episode_id"


def test_hints_start_empty_and_limits_are_checked(formation: Formation) -> None:
    assert formation.hints() == []
    assert formation.consolidate_hints() == []
    with pytest.raises(InvalidInput) as caught:
        formation.hints(limit=0)
    assert caught.value.field == "limit"
