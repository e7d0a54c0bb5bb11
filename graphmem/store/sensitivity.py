"""The sensitivity back-fill of ``reindex``: stored text that holds a secret is raised.

Writes set a node's level as it is created (``graphmem.trust.sensitivity``); this
finds the secrets in what was written before, or under an older finder, in pages,
each its own transaction. A level is only ever raised; running it again changes
nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from neo4j import ManagedTransaction

from graphmem.models import Sensitivity
from graphmem.store.database import Database, pages_by_seq, run
from graphmem.trust.secrets import holds_secret
from graphmem.trust.sensitivity import BELIEF_TEXTS, EPISODE_TEXTS, texts_of

PAGE = 1_000
"""Nodes read per page."""
_FIELDS = {"episode": EPISODE_TEXTS, "belief": BELIEF_TEXTS}


def _raise(tx: ManagedTransaction, principal: str, ids: list[str]) -> None:
    run(tx, "sensitivity/raise", principal=principal, ids=ids)


def raise_stored_secrets(
    db: Database, principal: str, progress: Callable[[int], None] = lambda done: None
) -> int:
    """Raises to secret every episode and belief of ``principal`` whose text holds one.

    Args:
        db: The database.
        principal: Whose memory.
        progress: Called with how many nodes each page read.

    Returns:
        How many nodes were raised.
    """
    raised = 0
    for page in pages_by_seq(db, "sensitivity/sources", principal, PAGE):
        found = [
            str(record["id"])
            for record in page
            if record["props"].get("sensitivity") != Sensitivity.SECRET
            and any(map(holds_secret, texts_of(record["props"], _FIELDS[record["label"]])))
        ]
        if found:
            db.write(partial(_raise, principal=principal, ids=found))
        raised += len(found)
        progress(len(page))
    return raised
