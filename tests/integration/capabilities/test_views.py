"""Views on their own: projects, listings, overview, changes and the event log."""

from __future__ import annotations

import pytest

from graphmem.capabilities.context import Context
from graphmem.capabilities.formation import Formation
from graphmem.capabilities.memory import Memory
from graphmem.capabilities.views import Views
from graphmem.errors import InvalidInput


def test_listings_and_summaries(context: Context) -> None:
    memory, views = Memory(context, Formation(context)), Views(context)
    memory.remember({"project": "api", "title": "Rate limit hit"})
    lesson = memory.believe("Back off on 429", project="api", type="lesson")
    fact = memory.believe("Invoices are PDFs", project="billing", type="fact")
    assert views.projects() == ["api", "billing"]
    assert [b.id for b in views.list_beliefs(type="lesson")] == [lesson]
    assert [b.id for b in views.list_beliefs(project="billing")] == [fact]
    assert [p.name for p in views.overview().projects] == ["api", "billing"]
    created = [c.node_id for c in views.changes(0, kinds=["learned"])]
    assert lesson in created and fact in created
    assert [e["node_id"] for e in views.events(limit=10)][-2:] == [lesson, fact]


def test_filters_are_checked(context: Context) -> None:
    views = Views(context)
    with pytest.raises(InvalidInput) as caught:
        views.list_beliefs(type="opinion")
    assert caught.value.field == "type"
    with pytest.raises(InvalidInput) as since:
        views.events(since=-1)
    assert since.value.field == "since"
