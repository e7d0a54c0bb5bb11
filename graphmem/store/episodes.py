"""Episodes (docs/architecture.md): what happened, written in batches and read back by id.

Every read filters on the principal.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from neo4j import ManagedTransaction

from graphmem.entities.mentions import batched, episode_mentions
from graphmem.models import Episode, NewEpisode
from graphmem.store.clock import Reservation, stamp, write_seqs
from graphmem.store.database import Database, plain, run
from graphmem.store.embeddings import Encoder, StoredVectors, episode_view_text, vector_fields
from graphmem.store.writes import (
    IDEMPOTENCY_DIGEST,
    assign_ids,
    check_episodes_exist,
    existing_keys,
    payload_digest,
    positions,
)
from graphmem.trust.sensitivity import EPISODE_TEXTS, effective, texts_of


def _digest(episode: NewEpisode) -> str | None:
    """The payload digest its idempotency key stands for (None without a key)."""
    return payload_digest("episode", episode) if episode.idempotency_key else None


def _episode_row(
    episode: NewEpisode, episode_id: str, digest: str | None, vectors: StoredVectors | None
) -> dict[str, Any]:
    props = episode.model_dump(exclude={"parent"})
    props["id"] = episode_id
    props[IDEMPOTENCY_DIGEST] = digest
    props["sensitivity"] = effective(episode.sensitivity, texts_of(props, EPISODE_TEXTS))
    return {"props": props, "parent": episode.parent, **vector_fields(vectors)}


def create_episodes(
    db: Database,
    principal: str,
    episodes: Sequence[NewEpisode],
    *,
    row_numbers: bool,
    encode: Encoder | None = None,
) -> list[str]:
    """Writes episodes in one transaction; returns their ids in order.

    With ``encode``, each episode's title and text are embedded first, outside the
    transaction, and the vectors stored with it.
    """
    now = datetime.now(UTC)
    texts = [episode_view_text(e.title, e.text) for e in episodes]
    vectors = list(encode(texts)) if encode else [None] * len(episodes)

    def work(tx: ManagedTransaction, reservation: Reservation | None) -> list[str]:
        keys = [e.idempotency_key for e in episodes]
        digests = [_digest(e) for e in episodes]
        assigned = assign_ids(
            keys, digests, existing_keys(tx, "episode", principal, keys), row_numbers=row_numbers
        )
        rows = [
            (index, episode, episode_id, digest)
            for index, (episode, digest, (episode_id, is_new)) in enumerate(
                zip(episodes, digests, assigned, strict=True)
            )
            if is_new
        ]
        stored = {episode_id: vectors[index] for index, _, episode_id, _ in rows}
        check_episodes_exist(
            tx,
            principal,
            [
                (index if row_numbers else None, "parent", episode.parent)
                for index, episode, _, _ in rows
                if episode.parent is not None
            ],
        )
        if rows:
            new = [
                _episode_row(episode, episode_id, digest, stored[episode_id])
                for _, episode, episode_id, digest in rows
            ]
            names, mentions = batched([episode_mentions(row["props"]) for row in new])
            projects, in_project = positions([[episode.project] for _, episode, _, _ in rows])
            run(
                tx,
                "episode/create",
                principal=principal,
                now=now,
                rows=[
                    {**row, "mentions": at, "in_project": project[0]}
                    for row, at, project in zip(new, mentions, in_project, strict=True)
                ],
                names=names,
                projects=projects,
            )
            new_ids = [episode_id for _, _, episode_id, _ in rows]
            stamp(tx, "episode", principal, new_ids, now, reservation)
        return [episode_id for episode_id, _ in assigned]

    return write_seqs(
        db, principal, len(episodes), work, keyed=any(e.idempotency_key for e in episodes)
    )


def get_episodes(db: Database, principal: str, ids: Sequence[str]) -> list[Episode]:
    """Returns the episodes with these ids that exist for the principal, in order."""
    if not ids:
        return []
    records = db.read("episode/get", principal=principal, ids=list(ids))
    return [
        Episode(**{**plain(record["episode"]), "parent": record["parent"]}) for record in records
    ]


def unconsolidated_ids(db: Database, principal: str, limit: int) -> list[str]:
    """Ids of the principal's episodes formation has not run over yet, oldest first."""
    records = db.read("episode/unconsolidated", principal=principal, limit=limit)
    return [str(record["id"]) for record in records]


def forget_episodes(db: Database, principal: str, ids: Sequence[str], actor: str) -> int:
    """Deletes these episodes of the principal, in one transaction; returns how many.

    Ids the principal does not hold are skipped (forgetting again changes nothing).
    """
    now = datetime.now(UTC)

    def work(tx: ManagedTransaction) -> int:
        wanted = sorted(set(ids))
        held = {r["id"] for r in run(tx, "episode/existing_ids", principal=principal, ids=wanted)}
        for episode_id in wanted:
            if episode_id in held:
                run(tx, "episode/forget", principal=principal, id=episode_id, actor=actor, now=now)
        return len(held)

    return db.write(work)
