"""What the capabilities of one client share."""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.errors import NotFound
from graphmem.models import Episode
from graphmem.recall.engine import RecallEngine
from graphmem.settings import FeedbackSettings
from graphmem.store import episodes as episode_store
from graphmem.store.database import Database
from graphmem.validation import check_id


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


class Capability:
    """A part of the client, holding what it needs of the shared :class:`Context`."""

    def __init__(self, context: Context) -> None:
        self._db = context.db
        self._principal = context.principal
        self._engine = context.engine
        self._feedback = context.feedback

    def _episode(self, episode_id: str) -> Episode:
        """One episode of this principal.

        Raises:
            InvalidInput: ``episode_id`` is not an id.
            NotFound: No such episode for this principal.
        """
        check_id(episode_id, "episode_id")
        found = episode_store.get_episodes(self._db, self._principal, [episode_id])
        if not found:
            raise NotFound(
                f"episode {episode_id} does not exist for this principal",
                field="episode_id",
                rule="exists",
            )
        return found[0]
