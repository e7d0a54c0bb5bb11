"""The semantic arm's FAISS view: derived, local, rebuildable (design §5).

One exact ``IndexIDMap2`` over inner product per principal and surface (beliefs or
episodes), ids being the nodes' creation ``seq``. It records the highest event seq it
covers and, before answering, catches up from the ``:MemoryEvent`` log, so several
clients sharing one Neo4j agree. Superseded or retired nodes stay in the view; the hard
filters in Cypher decide what may be returned (an ``as_of`` in the past needs them).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import faiss
import numpy as np

from graphmem.embed.protocol import Embedder
from graphmem.store.database import Database

Surface = Literal["belief", "episode"]

_CREATED: dict[str, str] = {"belief": "belief.created", "episode": "episode.created"}
_REMOVED: dict[str, tuple[str, ...]] = {
    "belief": ("belief.deleted",),
    "episode": ("episode.deleted",),
}
SYNC_BATCH = 2_000
FAISS_THREADS = 1
"""One query scans on one thread: with more, OpenMP fights onnxruntime and Neo4j for
the same cores (measured at 100k vectors: 35 ms with 2 threads, 13 ms with 1)."""


@dataclass(frozen=True)
class Hit:
    """A node's creation seq and its cosine similarity to the query."""

    seq: int
    similarity: float


class SemanticView:
    """One principal's FAISS index of one surface, persisted under ``directory``."""

    def __init__(
        self,
        db: Database,
        principal: str,
        surface: Surface,
        embedder: Embedder,
        directory: Path | None = None,
    ) -> None:
        faiss.omp_set_num_threads(FAISS_THREADS)
        self.db = db
        self.principal = principal
        self.surface = surface
        self.embedder = embedder
        self.watermark = 0
        self.index: Any = faiss.IndexIDMap2(faiss.IndexFlatIP(embedder.dim))
        self._files: tuple[Path, Path] | None = None
        if directory is not None:
            owner = hashlib.sha256(principal.encode()).hexdigest()[:20]
            stem = directory / owner / f"{surface}-{embedder.model_id}"
            self._files = (stem.with_suffix(".faiss"), stem.with_suffix(".json"))
            self._load()

    def _load(self) -> None:
        assert self._files is not None
        index_file, meta_file = self._files
        if not (index_file.is_file() and meta_file.is_file()):
            return
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        if (
            meta.get("model_id") != self.embedder.model_id
            or meta.get("principal") != self.principal
        ):
            return  # another model or a digest collision: rebuild from the graph
        self.index = faiss.read_index(str(index_file))
        self.watermark = int(meta["watermark"])

    def _save(self) -> None:
        if self._files is None:
            return
        index_file, meta_file = self._files
        index_file.parent.mkdir(parents=True, exist_ok=True)
        temporary = index_file.with_suffix(f".{os.getpid()}.tmp")
        faiss.write_index(self.index, str(temporary))
        temporary.replace(index_file)
        meta = {
            "principal": self.principal,
            "surface": self.surface,
            "model_id": self.embedder.model_id,
            "watermark": self.watermark,
            "count": int(self.index.ntotal),
        }
        temporary = meta_file.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        temporary.replace(meta_file)

    def sync(self) -> int:
        """Applies every event after the watermark; returns how many it applied."""
        applied = 0
        types = [_CREATED[self.surface], *_REMOVED[self.surface]]
        while True:
            events = self.db.read(
                "recall/events_since",
                principal=self.principal,
                since=self.watermark,
                types=types,
                limit=SYNC_BATCH,
            )
            if not events:
                break
            added = [e for e in events if e["type"] == _CREATED[self.surface] and e["node_seq"]]
            removed = [e["node_seq"] for e in events if e["type"] != _CREATED[self.surface]]
            if added:
                vectors = self.embedder.embed([e["text"] or "" for e in added])
                ids = np.array([e["node_seq"] for e in added], dtype=np.int64)
                self.index.remove_ids(ids)  # a replayed event must not duplicate a vector
                self.index.add_with_ids(vectors, ids)
            if removed:
                self.index.remove_ids(np.array([s for s in removed if s], dtype=np.int64))
            self.watermark = int(events[-1]["seq"])
            applied += len(events)
        if applied:
            self._save()
        return applied

    def rebuild(self) -> int:
        """Forgets the view and rebuilds it from the graph; returns the events applied."""
        self.index = faiss.IndexIDMap2(faiss.IndexFlatIP(self.embedder.dim))
        self.watermark = 0
        return self.sync()

    def search(self, vector: np.ndarray[Any, Any], limit: int) -> list[Hit]:
        """The ``limit`` nearest nodes, best first (ties by seq)."""
        if self.index.ntotal == 0 or limit <= 0:
            return []
        similarities, seqs = self.index.search(vector.reshape(1, -1), min(limit, self.index.ntotal))
        hits = [
            Hit(int(seq), float(similarity))
            for similarity, seq in zip(similarities[0], seqs[0], strict=True)
            if seq != -1
        ]
        return sorted(hits, key=lambda hit: (-hit.similarity, hit.seq))
