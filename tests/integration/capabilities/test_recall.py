"""Recall on its own: recall, search, snapshot, traces and citations, the views."""

from __future__ import annotations

import pytest

from graphmem.capabilities.context import Context
from graphmem.capabilities.formation import Formation
from graphmem.capabilities.memory import Memory
from graphmem.capabilities.recall import Recall
from graphmem.errors import InvalidInput


@pytest.fixture
def recall(context: Context) -> Recall:
    return Recall(context)


def test_recall_is_traced_and_cited(context: Context, recall: Recall) -> None:
    memory = Memory(context, Formation(context))
    belief_id = memory.believe("Invoices round half-even", project="billing", type="fact")
    result = recall.recall("how do invoices round?", project="billing")
    assert [item.id for item in result.items] == [belief_id]
    assert recall.recall("how do invoices round?", project="billing").rendered == result.rendered
    trace = recall.get_trace(result.trace_id)
    assert trace["item_ids"] == [belief_id]
    assert recall.cite(result.trace_id, [belief_id]).added == [belief_id]
    with pytest.raises(InvalidInput) as caught:
        recall.cite(result.trace_id, "not a list")
    assert caught.value.field == "item_ids"


def test_search_snapshot_and_views(context: Context, recall: Recall) -> None:
    memory = Memory(context, Formation(context))
    episode_id = memory.remember({"project": "billing", "title": "Invoice PDF renders blank"})
    memory.believe("Use UTF-8 fonts in PDFs", project="billing", type="lesson")
    assert [hit.id for hit in recall.search_episodes("blank invoice PDF").items] == [episode_id]
    assert "UTF-8 fonts" in recall.snapshot("billing").rendered
    assert recall.reindex()["belief"] >= 1
    assert recall.sweep_traces("0d").traces >= 1
