"""Demo memory for the Browser tests, plus an open conflict (the demo has none)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from graphmem import GraphMem
from graphmem.demo import run_demo
from graphmem.store.browser_queries import BrowserQuery

CONFLICT_SUBJECT = "invoice currency"


@dataclass(frozen=True)
class Seeded:
    """What the Browser queries are run with, and the ids they open."""

    principal: str
    belief_id: str
    episode_id: str

    def parameters(self, query: BrowserQuery) -> dict[str, str]:
        """The query's parameters: its demo values, and the id this seed wrote for it."""
        node_id = self.episode_id if query.name == "episode" else self.belief_id
        values = {**query.examples, "id": node_id}
        return {"principal": self.principal, **{name: values[name] for name in query.parameters}}


def seed(memory: GraphMem, workdir: Path) -> Seeded:
    """Writes the demo's memory and an open conflict for ``memory``'s principal.

    A user states the invoice currency; an agent's episode then says otherwise, and
    consolidation flags the two CONFLICTS_WITH (an agent may not supersede a user).
    """
    result = run_demo(memory, lambda line: None, workdir)
    memory.believe(
        "billing-api invoices are in EUR",
        project="billing-api",
        type="fact",
        subject=CONFLICT_SUBJECT,
        authority="user",
        idempotency_key="browser-test:conflict:user",
    )
    contested = memory.remember(
        {
            "project": "billing-api",
            "kind": "task",
            "title": "Read the invoice template",
            "outcome": "succeeded",
            "observations": [f"{CONFLICT_SUBJECT}: USD"],
            "idempotency_key": "browser-test:conflict:episode",
        }
    )
    memory.consolidate(contested)
    return Seeded(
        principal=memory.principal,
        belief_id=result.beliefs["rounding_v2"],
        episode_id=result.episodes["flaky"],
    )
