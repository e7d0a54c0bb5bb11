"""The entity layer's back-fill: every episode and belief of a principal relinked.

Writes link a node's entities as it is created; this relinks what was written before
the entity layer (or under other extraction rules), in pages, each its own
transaction: a node's MENTIONS become exactly its names and an entity left with no
mention goes. Running it again changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from neo4j import ManagedTransaction

from graphmem.entities.mentions import MentionRow, belief_mentions, episode_mentions
from graphmem.store.database import Database, pages_by_seq, run

PAGE = 1_000
"""Nodes read and relinked per transaction."""


def _relink(
    tx: ManagedTransaction, principal: str, rows: list[dict[str, str | list[MentionRow]]]
) -> None:
    run(tx, "entity/relink", principal=principal, rows=rows)


def relink_entities(
    db: Database, principal: str, progress: Callable[[int], None] = lambda done: None
) -> int:
    """Relinks every episode and belief of ``principal`` to its entities.

    Args:
        db: The database.
        principal: Whose memory.
        progress: Called with how many nodes each page relinked.

    Returns:
        How many nodes were relinked.
    """
    done = 0
    for page in pages_by_seq(db, "entity/sources", principal, PAGE):
        rows: list[dict[str, str | list[MentionRow]]] = [
            {
                "id": record["id"],
                "names": (episode_mentions if record["label"] == "episode" else belief_mentions)(
                    record["props"]
                ),
            }
            for record in page
        ]
        db.write(partial(_relink, principal=principal, rows=rows))
        done += len(rows)
        progress(len(rows))
    return done
