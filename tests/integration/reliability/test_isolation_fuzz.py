"""Generated memory of one principal never shows through any read API of another."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import GraphMem, NotFound

WORDS = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=30
).filter(lambda text: text.strip() != "")
PROJECT = st.from_regex(r"[a-z][a-z0-9-]{0,15}", fullmatch=True)
MEMORY = st.tuples(PROJECT, WORDS, WORDS, st.sampled_from(["fact", "lesson", "preference"]))


def _reads(reader: GraphMem, project: str, query: str) -> list[str]:
    """Everything the reader's read APIs return (but the query they echo), as text."""
    found = [
        reader.recall(query, project=project),
        reader.recall(query),
        reader.search_episodes(query),
        reader.snapshot(project),
    ]
    return [repr(result.items) for result in found] + [
        repr(reader.list_beliefs(project=project, include_superseded=True)),
        repr(reader.list_beliefs(include_superseded=True, state="retired")),
        repr(reader.events()),
        repr(reader.changes(0)),
        repr(reader.overview()),
        repr(reader.projects()),
    ]


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(memory=MEMORY)
def test_no_read_api_shows_another_principals_memory(
    make_memory: Callable[..., GraphMem], memory: tuple[str, str, str, str]
) -> None:
    project, title, statement, belief_type = memory
    alice, bob = make_memory(), make_memory()
    marker = f"alice-only {statement}"
    episode = alice.remember({"project": project, "title": f"alice-only {title}"})
    belief = alice.believe(marker, project=project, type=belief_type, evidence=[episode])
    newer = alice.supersede(belief, f"{marker} v2", reason="r")
    trace = alice.recall(statement, project=project).trace_id
    bob.believe("bob's own", project=project, type="fact")

    for text in _reads(bob, project, statement) + _reads(bob, project, marker):
        assert "alice-only" not in text
        for node_id in (episode, belief, newer):
            assert node_id not in text
    for call in (
        lambda: bob.get_belief(belief),
        lambda: bob.history(newer),
        lambda: bob.get_episode(episode),
        lambda: bob.anchor_status(belief),
        lambda: bob.get_trace(trace),
    ):
        with pytest.raises(NotFound):
            call()
