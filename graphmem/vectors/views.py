"""The semantic arm's FAISS view: derived, local, rebuildable (docs/recall.md).

One index per principal and surface (beliefs or episodes), ids being the nodes'
creation ``seq``. It records the highest event seq it covers and, before answering,
catches up from the ``:MemoryEvent`` log, so several clients sharing one Neo4j agree.
It reads each new item's stored vectors (:mod:`graphmem.store.embeddings`), which the
writer embedded once; only an item stored without vectors of its model (written by an
older graphmem, imported, or a supersession) is embedded here, and its vectors are
stored back through the view's sink so that no other view embeds it again.
Superseded or retired nodes stay in the view; the hard filters in Cypher decide what
may be returned (an ``as_of`` in the past needs them). A text longer than the model
reads is embedded in overlapping windows (:mod:`graphmem.vectors.windows`), each its
own vector, and a node scores its best window's similarity.

Up to ``exact_max`` vectors the index is exact (``IndexIDMap2`` over a flat inner
product, with real removal). Above it the view switches to HNSW: removal is by filter
(removed ids are skipped at search time) and the graph is rebuilt from its own stored
vectors once a tenth of it is removed.

View files are private (directories 0700, files 0600) and name the principal only by
its sha256; a view written before that (its meta named the principal in clear) is not
read but rebuilt from the graph, and overwritten.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

import faiss
import numpy as np

from graphmem.errors import GraphMemError
from graphmem.settings import make_private_dir, private_file, write_private_text
from graphmem.store.embeddings import StoredVectors
from graphmem.store.events import ViewEvent
from graphmem.vectors import freed
from graphmem.vectors.protocol import Embedder, Vectors
from graphmem.vectors.stored import embed_items, unpack
from graphmem.vectors.tier import cache_budget, sweep
from graphmem.vectors.windows import WINDOW_SLOTS, item_seqs, window_ids

Surface = Literal["belief", "episode"]
ViewFeed = Callable[[int, Sequence[str], int], list[ViewEvent]]
"""Reads the events a view has not seen: (after seq, event types, at most) → events."""
VectorSink = Callable[[Sequence[tuple[str, StoredVectors]]], None]
"""Stores the vectors a view had to embed, by node id, for the other views."""

_CREATED: dict[str, str] = {"belief": "belief.created", "episode": "episode.created"}
_REMOVED: dict[str, tuple[str, ...]] = {
    "belief": ("belief.deleted",),
    "episode": ("episode.deleted",),
}


def created_event(surface: Surface) -> str:
    """The event type that adds a node of ``surface`` to a derived view."""
    return _CREATED[surface]


def removed_events(surface: Surface) -> tuple[str, ...]:
    """The event types that remove a node of ``surface`` from a derived view."""
    return _REMOVED[surface]


def view_event_types(surface: Surface) -> list[str]:
    """The event types a derived view of ``surface`` reads: created, then removed."""
    return [created_event(surface), *removed_events(surface)]


def prefetched(
    first: Sequence[ViewEvent], since: int, types: Sequence[str], limit: int, read: ViewFeed
) -> ViewFeed:
    """A feed that answers from one read already made, while that read covers the ask.

    One query catches up both views of a surface (the lexical and the semantic): one
    read of the event log after the lower watermark serves both, instead of one each.
    An ask it cannot answer (from before ``since``, of other types, or past the end of
    a full batch) goes to ``read``.

    Args:
        first: What ``read(since, types, limit)`` returned.
        since: The seq that read started after.
        types: The event types it read.
        limit: The most events it asked for.
        read: The feed for what ``first`` does not cover.
    """
    complete = len(first) < limit  # it reached the end of the log as it was then
    last = first[-1].seq if first else since

    def feed(after: int, wanted: Sequence[str], most: int) -> list[ViewEvent]:
        covered = since <= after and (complete or after < last)
        if covered and most >= limit and list(wanted) == list(types):
            return [event for event in first if event.seq > after]
        return read(after, wanted, most)

    return feed


SYNC_BATCH = 2_000
PARALLEL_ADD_MIN = 256
"""Vectors added to an HNSW graph at once from which the add runs on every core."""
FAISS_THREADS = 1
"""One query scans on one thread: with more, OpenMP fights onnxruntime and Neo4j for
the same cores (measured at 100k vectors: 35 ms with 2 threads, 13 ms with 1).

FAISS has only a process-wide OpenMP setting. graphmem sets it once, when its first
view opens (``GRAPHMEM_FAISS_THREADS`` overrides the number), and an HNSW build
raises it to every core for the build only, under a lock, restoring what it found."""
DEFAULT_EXACT_MAX = 50_000
"""Above this many vectors the view turns approximate (GRAPHMEM_FAISS_EXACT_MAX)."""
HNSW_NEIGHBOURS = 32
HNSW_EF_CONSTRUCTION = 40
HNSW_EF_SEARCH = 128
REBUILD_REMOVED_SHARE = 0.1
SAVE_SHARE = 8
"""The index is saved once the events applied since its last save pass 1/8 of it..."""
SAVE_MIN = 4_096
"""...or this many, whichever is more (deletions and rebuilds save at once)."""
VIEW_FORMAT = 2
"""2: long texts in windows, ids ``seq * WINDOW_SLOTS + window``. A view saved in
another format is rebuilt from the graph."""


_OMP_LOCK = threading.Lock()


@contextlib.contextmanager
def _every_core() -> Iterator[None]:
    """FAISS on every core for one build step (under a lock), then what it found."""
    with _OMP_LOCK:
        before = faiss.omp_get_max_threads()
        faiss.omp_set_num_threads(os.cpu_count() or 1)
        try:
            yield
        finally:
            faiss.omp_set_num_threads(before)


@cache
def _set_search_threads() -> None:
    faiss.omp_set_num_threads(int(os.environ.get("GRAPHMEM_FAISS_THREADS") or FAISS_THREADS))


@dataclass(frozen=True)
class Hit:
    """A node's creation seq and its cosine similarity to the query."""

    seq: int
    similarity: float


def _exact_index(dim: int) -> Any:
    return faiss.IndexIDMap2(faiss.IndexFlatIP(dim))


RESHAPE_CHUNK = 65_536
"""Vectors copied at a time into a new HNSW graph: a copy of the whole index (1.5 GB at
1M vectors, twice with removals filtered) would sit beside the old index and the new."""


SQ_RANGE_MARGIN = 0.1
"""How far past the sample's minimum and maximum of a dimension the quantiser's range
reaches (a share of that range), so a later text's vector is rarely clipped."""
SQ_SAMPLE = 65_536
"""Vectors, spread evenly over the whole index, that the quantiser's ranges come from."""


def _train_quantiser(graph: Any, index: Any) -> None:
    """Trains ``graph``'s per-dimension ranges on vectors spread over all of ``index``."""
    storage: Any = faiss.downcast_index(graph.storage)
    storage.sq.rangestat = faiss.ScalarQuantizer.RS_minmax
    storage.sq.rangestat_arg = SQ_RANGE_MARGIN
    total = index.ntotal
    if not total:  # nothing to learn from: the whole range a unit vector's parts can take
        graph.train(np.stack([-np.ones(graph.d), np.ones(graph.d)]).astype(np.float32))
        return
    positions = np.arange(0, total, max(1, total // SQ_SAMPLE), dtype=np.int64)[:SQ_SAMPLE]
    graph.train(index.index.reconstruct_batch(positions))


def _approximate_copy(dim: int, index: Any, removed: set[int]) -> Any:
    """A new HNSW index of every (vector, id) ``index`` holds, less the ``removed`` items'.

    The graph's vectors are scalar-quantised to one byte per dimension (``SQ8``): a
    quarter of float32's memory (at 1M MiniLM vectors, 384 MB instead of 1.5 GB), at
    no measured loss of recall (docs/benchmarks.md). Each dimension's range comes from
    vectors spread over the whole index, with a margin for later texts. The vectors are
    copied a chunk at a time, so the peak is the two indexes, not the two plus a full
    copy of the vectors.
    """
    quantised: Any = faiss.ScalarQuantizer.QT_8bit
    graph = faiss.IndexHNSWSQ(dim, quantised, HNSW_NEIGHBOURS, faiss.METRIC_INNER_PRODUCT)
    graph.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
    graph.hnsw.efSearch = HNSW_EF_SEARCH
    _train_quantiser(graph, index)
    copy = faiss.IndexIDMap2(graph)
    all_ids = faiss.vector_to_array(index.id_map).astype(np.int64)
    dropped = np.array(sorted(removed), dtype=np.int64)
    for start in range(0, len(all_ids), RESHAPE_CHUNK):
        ids = all_ids[start : start + RESHAPE_CHUNK]
        vectors = index.index.reconstruct_n(start, len(ids))
        keep = ~np.isin(item_seqs(ids), dropped)
        if keep.any():
            copy.add_with_ids(vectors[keep], ids[keep])
    return copy


def principal_digest(principal: str) -> str:
    """The sha256 of a principal: views name it by this, never in clear."""
    return hashlib.sha256(principal.encode()).hexdigest()


def views_directory(directory: Path, principal: str) -> Path:
    """Where one principal's views live under the views ``directory``."""
    return directory / principal_digest(principal)[:20]


def remove_views(directory: Path, principal: str) -> None:
    """Deletes every view file of one principal (its graph data is gone)."""
    shutil.rmtree(views_directory(directory, principal), ignore_errors=True)


class SemanticView:
    """One principal's FAISS index of one surface, persisted under ``directory``."""

    def __init__(
        self,
        feed: ViewFeed,
        principal: str,
        surface: Surface,
        embedder: Embedder,
        directory: Path | None = None,
        exact_max: int | None = None,
        sink: VectorSink | None = None,
    ) -> None:
        _set_search_threads()
        self._feed = feed
        self._sink = sink
        self.embedded = 0
        """How many items this view embedded itself (none had stored vectors)."""
        self._unsaved = 0
        self.principal = principal
        self.surface = surface
        self.embedder = embedder
        env_max = os.environ.get("GRAPHMEM_FAISS_EXACT_MAX")
        self.exact_max = exact_max or (int(env_max) if env_max else DEFAULT_EXACT_MAX)
        self.watermark = 0
        self.index: Any = _exact_index(embedder.dim)
        self.approximate = False
        self.removed: set[int] = set()
        self._files: tuple[Path, Path] | None = None
        self._directory = directory
        # One client may be called from several threads (AsyncGraphMem, the MCP server):
        # catching up, rebuilding and searching take turns on the index.
        self._lock = threading.RLock()
        if directory is not None:
            stem = views_directory(directory, principal) / f"{surface}-{embedder.model_id}"
            self._files = (stem.with_suffix(".faiss"), stem.with_suffix(".json"))
            self._load()
        self._present = self._items()

    def _items(self) -> set[int]:
        """The seqs of the items the index holds a window of."""
        ids = faiss.vector_to_array(self.index.id_map).astype(np.int64)
        return set(item_seqs(ids).tolist())

    def _load(self) -> None:
        assert self._files is not None
        index_file, meta_file = self._files
        if not (index_file.is_file() and meta_file.is_file()):
            return
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        same_principal = meta.get("principal_sha256") == principal_digest(self.principal)
        same_format = meta.get("format") == VIEW_FORMAT
        if meta.get("model_id") != self.embedder.model_id or not same_principal or not same_format:
            return  # another model, a collision or an older format: rebuild from the graph
        self.index = faiss.read_index(str(index_file))
        meta_file.touch()  # used now: the cache budget evicts least recently used views
        self.watermark = int(meta["watermark"])
        self.approximate = bool(meta.get("approximate", False))
        self.removed = set(meta.get("removed", []))

    def _save(self) -> None:
        if self._files is None:
            return
        index_file, meta_file = self._files
        assert self._directory is not None
        make_private_dir(self._directory)  # an older graphmem left it world-readable
        make_private_dir(index_file.parent)
        with private_file(index_file, "wb") as stream:
            # Streamed (faiss.serialize_index would hold a second copy in memory);
            # faiss's stub does not declare the callback writer.
            writer = faiss.PyCallbackIOWriter(stream.write)  # type: ignore[attr-defined]
            faiss.write_index(self.index, writer)
            del writer  # flushes its buffer into the stream
        meta = {
            "principal_sha256": principal_digest(self.principal),
            "surface": self.surface,
            "model_id": self.embedder.model_id,
            "format": VIEW_FORMAT,
            "watermark": self.watermark,
            "count": int(self.index.ntotal),
            "approximate": self.approximate,
            "removed": sorted(self.removed),
        }
        write_private_text(meta_file, json.dumps(meta) + "\n")
        self._unsaved = 0
        # This view, just saved, is kept, and so are its principal's other views.
        sweep(self._directory, cache_budget(), index_file.parent.name)

    def _add(self, vectors: Vectors, ids: list[int]) -> None:
        """Adds window vectors by window id; an item already here is skipped."""
        seqs = item_seqs(np.array(ids, dtype=np.int64)).tolist()
        fresh = [
            (i, row)
            for i, seq, row in zip(ids, seqs, vectors, strict=True)
            if seq not in self._present
        ]
        self.removed.difference_update(seqs)
        if not fresh:
            return  # replayed events: every vector is already here
        rows = np.stack([row for _, row in fresh])
        fresh_ids = np.array([i for i, _ in fresh], dtype=np.int64)
        if self.approximate and len(fresh) >= PARALLEL_ADD_MIN:
            with _every_core():  # a page caught up: inserting into the graph is the cost
                self.index.add_with_ids(rows, fresh_ids)
        else:
            self.index.add_with_ids(rows, fresh_ids)
        self._present.update(seqs)

    def _add_items(self, created: list[ViewEvent]) -> None:
        """Adds created items from their stored vectors, embedding those stored without.

        Items are added in seq order whichever way their vectors came, so the same
        events build the same index.
        """
        rows: dict[int, Vectors] = {}
        missing: list[ViewEvent] = []
        for event in created:
            assert event.node_seq is not None  # created events name their node
            if event.node_seq in self._present:
                continue  # replayed: neither read nor embedded again
            stored = unpack(event.vectors, self.embedder) if event.vectors else None
            if stored is None:
                missing.append(event)
            else:
                rows[event.node_seq] = stored
        if missing:
            made = embed_items(self.embedder, [event.text for event in missing])
            self.embedded += len(missing)
            for event, vectors in zip(missing, made, strict=True):
                unpacked = unpack(vectors, self.embedder)
                assert event.node_seq is not None and unpacked is not None  # its own model
                rows[event.node_seq] = unpacked
            self._store_back([(e.node_id, v) for e, v in zip(missing, made, strict=True)])
        seqs = list(dict.fromkeys(e.node_seq for e in created if e.node_seq in rows))
        if seqs:
            self._add(
                np.concatenate([rows[seq] for seq in seqs]),
                [i for seq in seqs for i in window_ids(seq, len(rows[seq]))],
            )

    def _store_back(self, made: list[tuple[str, StoredVectors]]) -> None:
        """Stores what this view embedded, for the other views; a failure only costs them."""
        if self._sink is None:
            return
        # On failure the vectors are still in this view; another view embeds the item.
        with contextlib.suppress(GraphMemError):
            self._sink([(node_id, vectors) for node_id, vectors in made if node_id])

    def _remove(self, seqs: list[int]) -> None:
        """Removes every window of the items ``seqs``."""
        if self.approximate:
            self.removed.update(i for i in seqs if i in self._present)
            return
        ids = faiss.vector_to_array(self.index.id_map).astype(np.int64)
        gone = ids[np.isin(item_seqs(ids), np.array(seqs, dtype=np.int64))]
        if len(gone):
            self.index.remove_ids(gone)
        self._present.difference_update(seqs)

    def _reshape(self, purge: bool = False) -> bool:
        """Turns approximate above ``exact_max``; rebuilds once many ids are removed.

        Returns whether it rebuilt the index.

        With ``purge`` it rebuilds whenever any id is removed: a forgotten vector must
        not linger in the HNSW graph.
        """
        too_big = not self.approximate and self.index.ntotal > self.exact_max
        limit = 0 if purge else REBUILD_REMOVED_SHARE * max(1, self.index.ntotal)
        stale = self.approximate and len(self.removed) > limit
        if not (too_big or stale):
            return False
        with _every_core():  # building may use every core; searching uses FAISS_THREADS
            self.index = _approximate_copy(self.embedder.dim, self.index, self.removed)
        self.approximate = True
        self.removed = set()
        self._present = self._items()
        return True

    def sync(
        self, purge: bool = False, feed: ViewFeed | None = None, most: int | None = None
    ) -> int:
        """Applies the events after the watermark; returns how many it applied.

        The index is saved the first time, when a deletion was applied (a forgotten
        vector leaves the disk with the memory), when it was rebuilt, or once the
        events applied since the last save pass an eighth of it: a write followed by
        a recall no longer rewrites the whole file (191 MB at 100k beliefs), and a view
        loaded from an older file replays the rest from the stored vectors.

        Args:
            purge: Also rebuild an approximate index that still holds removed vectors
                (after ``forget``), instead of filtering them until the next rebuild.
            feed: Where to read the events this time (see :func:`prefetched`); the
                view's own feed when None.
            most: Stop once this many events are applied (whole pages of
                ``SYNC_BATCH``); None applies every event there is.
        """
        with self._lock:
            return self._sync(purge, feed or self._feed, most)

    def _sync(self, purge: bool, feed: ViewFeed, most: int | None = None) -> int:
        applied = 0
        deleted = reshaped = False
        types = view_event_types(self.surface)
        while most is None or applied < most:
            events = feed(self.watermark, types, SYNC_BATCH)
            if not events:
                break
            created = created_event(self.surface)
            added = [e for e in events if e.type == created and e.node_seq]
            removed = [e.node_seq for e in events if e.type != created and e.node_seq]
            if added:
                self._add_items(added)
            if removed:
                self._remove(removed)
                deleted = True
            self.watermark = events[-1].seq
            applied += len(events)
            # Reshaped page by page: built from empty, the exact index never grows past
            # exact_max and a page (at 1M vectors it would be 1.5 GB, then copied).
            reshaped = self._reshape() or reshaped
        if applied or (purge and self.removed):
            reshaped = self._reshape(purge) or reshaped
            self._unsaved += applied
            due = self._unsaved > max(SAVE_MIN, self.index.ntotal // SAVE_SHARE)
            due = due or (self._files is not None and not self._files[0].is_file())
            if deleted or reshaped or due:
                self._save()
        freed.applied(applied)
        return applied

    def rebuild(self) -> int:
        """Forgets the view and rebuilds it from the graph; returns the events applied."""
        with self._lock:
            self.index = _exact_index(self.embedder.dim)
            self.approximate = False
            self.removed = set()
            self._present = set()
            self.watermark = 0
            applied = self._sync(purge=False, feed=self._feed)
            self._save()
            return applied

    def search(self, vector: Vectors, limit: int) -> list[Hit]:
        """The ``limit`` nearest live items, best first (ties by seq).

        An item scores its best window. When some item has several windows, the index
        is asked for three times ``limit`` windows (such an item takes several places);
        otherwise, as for beliefs, which fit one window, for ``limit`` (an HNSW search
        asked for more explores more). In approximate mode it is asked for up to twice
        ``limit`` more for the removed ids it filters out: with under a tenth of the
        index removed (more triggers a rebuild) that almost always leaves ``limit`` live
        items.
        """
        with self._lock:
            live = self.index.ntotal - len(self.removed)
            if live <= 0 or limit <= 0:
                return []
            # Removed items of an approximate index stay in _present: the counts compare.
            per_item = 3 if self.index.ntotal > len(self._present) else 1
            wanted = min(per_item * limit + min(len(self.removed), 2 * limit), self.index.ntotal)
            similarities, ids = self.index.search(vector.reshape(1, -1), wanted)
            best: dict[int, float] = {}
            for similarity, window_id in zip(similarities[0], ids[0], strict=True):
                seq = int(window_id) // WINDOW_SLOTS
                if window_id != -1 and seq not in self.removed and seq not in best:
                    best[seq] = float(similarity)  # the index answers best first
        hits = [Hit(seq, similarity) for seq, similarity in best.items()]
        return sorted(hits, key=lambda hit: (-hit.similarity, hit.seq))[:limit]
