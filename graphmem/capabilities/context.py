"""What the capabilities of one client share."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from graphmem.errors import NotFound
from graphmem.models import Belief, Episode
from graphmem.recall.engine import RecallEngine
from graphmem.settings import ExpirySettings, FeedbackSettings
from graphmem.store import episodes as episode_store
from graphmem.store.database import Database
from graphmem.validation import check_id

Node = TypeVar("Node", Belief, Episode)


@dataclass(frozen=True)
class Context:
    """One client's connection, whose memory it is, and its recall engine."""

    db: Database
    principal: str
    """The hard filter on every read and the owner of every write."""
    engine: RecallEngine
    """The recall pipeline and the local views (semantic and lexical) it keeps."""
    feedback: FeedbackSettings
    """When misses queue formation hints and how long operator fields live."""
    expiry: ExpirySettings = field(default_factory=ExpirySettings)
    """The windows after which formed beliefs are demoted and retired."""


class Capability:
    """A part of the client, holding what it needs of the shared :class:`Context`."""

    def __init__(self, context: Context) -> None:
        self._db = context.db
        self._principal = context.principal
        self._engine = context.engine
        self._feedback = context.feedback
        self._expiry = context.expiry

    def _episode(self, episode_id: str) -> Episode:
        """One episode of this principal.

        Raises:
            InvalidInput: ``episode_id`` is not an id.
            NotFound: No such episode for this principal.
        """
        return self._one(episode_store.get_episodes, "episode", episode_id)

    def _one(
        self,
        read: Callable[[Database, str, Sequence[str]], list[Node]],
        kind: Literal["belief", "episode"],
        node_id: str,
    ) -> Node:
        """One belief or episode of this principal, by id.

        Args:
            read: The store's read of that kind by ids.
            kind: What ``node_id`` names; the errors name the field ``{kind}_id``.
            node_id: The id asked for.

        Raises:
            InvalidInput: ``node_id`` is not an id.
            NotFound: No such node for this principal.
        """
        field = f"{kind}_id"
        check_id(node_id, field)
        found = read(self._db, self._principal, [node_id])
        if not found:
            raise NotFound(
                f"{kind} {node_id} does not exist for this principal", field=field, rule="exists"
            )
        return found[0]
