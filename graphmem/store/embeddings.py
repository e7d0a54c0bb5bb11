"""Stored vectors: each item's embedding, written once and read by every view.

An item's vectors live on one ``:Embedding`` node (``(item)-[:EMBEDDED_AS]->``) that
holds the model that made them and the window vectors packed as little-endian float32,
one after another. The writer of a belief or episode stores them in the same
transaction; a view that reaches an item without vectors of its model embeds it and
stores them here for the others (:func:`save_vectors`). Nothing else reads them: they
stay out of the item's own properties, so exports, reads and Neo4j Browser never
carry a kilobyte of floats.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from graphmem.store.database import Database, run


@dataclass(frozen=True)
class StoredVectors:
    """One item's window vectors as stored: the model's id and the packed float32s."""

    model: str
    data: bytes


Encoder = Callable[[Sequence[str]], Sequence[StoredVectors]]
"""Turns the texts a view embeds into their stored vectors, one per text, in order."""


def episode_view_text(title: str | None, text: str | None) -> str:
    """What a view embeds for an episode: its title, then its text on the next line.

    The same as ``memory/view_events`` computes, so the writer's vectors are the ones a
    view would make from the graph.
    """
    head = title or ""
    return f"{head}\n{text}" if text else head


def vector_fields(vectors: StoredVectors | None) -> dict[str, str | bytes | None]:
    """A create row's ``vector_model`` and ``vectors`` (both None: the views embed it)."""
    if vectors is None:
        return {"vector_model": None, "vectors": None}
    return {"vector_model": vectors.model, "vectors": vectors.data}


def save_vectors(db: Database, principal: str, rows: Sequence[tuple[str, StoredVectors]]) -> None:
    """Stores (or replaces) the vectors of the principal's items, by node id."""
    if rows:
        fields = [{"id": node_id, **vector_fields(vectors)} for node_id, vectors in rows]
        db.write(lambda tx: run(tx, "embedding/save", principal=principal, rows=fields))


@dataclass(frozen=True)
class Unembedded:
    """An item with no stored vectors of some model: its id, seq and the text to embed."""

    id: str
    seq: int
    text: str


def unembedded(
    db: Database,
    principal: str,
    surface: Literal["belief", "episode"],
    model: str,
    after: int,
    limit: int,
) -> list[Unembedded]:
    """The next ``limit`` items of ``surface`` after seq ``after`` without ``model``'s vectors."""
    records = db.read(
        f"embedding/unembedded_{surface}s",
        principal=principal,
        model=model,
        after=after,
        limit=limit,
    )
    if surface == "belief":
        return [Unembedded(str(r["id"]), int(r["seq"]), str(r["text"])) for r in records]
    return [
        Unembedded(str(r["id"]), int(r["seq"]), episode_view_text(r["title"], r["text"]))
        for r in records
    ]


def count_unembedded(db: Database, principal: str, model: str) -> dict[str, int]:
    """How many beliefs and episodes of the principal have no stored vectors of ``model``."""
    record = db.read("embedding/count_unembedded", principal=principal, model=model)[0]
    return {"belief": int(record["beliefs"]), "episode": int(record["episodes"])}
