"""The lexical arm's view: BM25 over one principal's own memory (design §5.2).

Lucene scores with index-wide statistics, so in a shared Neo4j one principal's ranking
moved with every other principal's documents. The lexical arm therefore keeps its own
inverted index per principal and surface, derived from the ``:MemoryEvent`` log like
the semantic view (created nodes add their text, deletions remove it) and kept beside
it under the views directory. Document frequencies, lengths and the document count
are the principal's own: another principal's writes cannot change a single score.

The index is a compressed base (CSR: term → document positions and term frequencies)
plus the postings added since it was last merged. A deletion (``forget``) merges and
compacts at once, so a forgotten text's words leave memory and disk together.
Superseded or retired nodes stay; the hard filters in Cypher decide what is returned.
"""

from __future__ import annotations

import io
import json
import os
import threading
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from graphmem.recall.terms import ANALYSIS_VERSION, document_terms, query_terms
from graphmem.settings import PRIVATE_FILE_MODE, make_private_dir, write_private_text
from graphmem.vectors.tier import cache_budget, sweep
from graphmem.vectors.views import (
    SYNC_BATCH,
    Surface,
    ViewFeed,
    created_event,
    principal_digest,
    removed_events,
    views_directory,
)

K1 = 1.2
"""BM25 term-frequency saturation (Lucene's default)."""
B = 0.75
"""BM25 length normalisation."""
MERGE_SHARE = 8
"""Pending postings are merged into the base once they exceed a 1/8 of it (or 4,096)."""
_MERGE_MIN = 4_096

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Scored:
    """A node's creation seq and its BM25 score for the query."""

    seq: int
    score: float


class LexicalView:
    """One principal's BM25 index of one surface, persisted under ``directory``."""

    def __init__(
        self, feed: ViewFeed, principal: str, surface: Surface, directory: Path | None = None
    ) -> None:
        self._feed = feed
        self.principal = principal
        self.surface = surface
        self._directory = directory
        self._files: tuple[Path, Path] | None = None
        self._lock = threading.RLock()
        self._clear()
        if directory is not None:
            stem = views_directory(directory, principal) / f"{surface}-lexical"
            self._files = (stem.with_suffix(".npz"), stem.with_suffix(".json"))
            self._load()

    # --- state ------------------------------------------------------------------

    def _clear(self) -> None:
        self.watermark = 0
        self._terms: list[str] = []
        self._term_id: dict[str, int] = {}
        self._offsets: Ints = np.zeros(1, dtype=np.int64)
        """Base postings of term t: positions ``_offsets[t]`` to ``_offsets[t + 1]``."""
        self._docs: Ints = np.zeros(0, dtype=np.int64)
        self._tfs: Ints = np.zeros(0, dtype=np.int64)
        self._pending: dict[int, list[int]] = {}
        """Postings since the last merge: term id → [doc, tf, doc, tf, ...]."""
        self._pending_count = 0
        self._doc_seqs: list[int] = []
        self._doc_lengths: list[int] = []
        self._doc_of_seq: dict[int, int] = {}
        self._total_length = 0
        self._arrays: tuple[Ints, Floats] | None = None

    @property
    def count(self) -> int:
        """How many documents the view holds."""
        return len(self._doc_seqs)

    def _add(self, seq: int, text: str) -> None:
        if seq in self._doc_of_seq:
            return  # a replayed event: already here
        doc = len(self._doc_seqs)
        terms = document_terms(text)
        self._doc_seqs.append(seq)
        self._doc_lengths.append(len(terms))
        self._doc_of_seq[seq] = doc
        self._total_length += len(terms)
        self._arrays = None
        for term, tf in Counter(terms).items():
            term_id = self._term_id.get(term)
            if term_id is None:
                term_id = self._term_id[term] = len(self._terms)
                self._terms.append(term)
            self._pending.setdefault(term_id, []).extend((doc, tf))
            self._pending_count += 1

    def _triples(self) -> tuple[Ints, Ints, Ints]:
        """Every posting as (term id, doc, tf) arrays, base and pending together."""
        counts = np.diff(self._offsets)
        terms = [np.repeat(np.arange(len(counts), dtype=np.int64), counts)]
        docs, tfs = [self._docs], [self._tfs]
        for term_id, flat in self._pending.items():
            pairs = np.array(flat, dtype=np.int64).reshape(-1, 2)
            terms.append(np.full(len(pairs), term_id, dtype=np.int64))
            docs.append(pairs[:, 0])
            tfs.append(pairs[:, 1])
        return np.concatenate(terms), np.concatenate(docs), np.concatenate(tfs)

    def _merge(self, removed: set[int] | None = None) -> None:
        """Folds pending postings into the base; drops ``removed`` documents' postings."""
        terms, docs, tfs = self._triples()
        if removed:
            gone = np.zeros(len(self._doc_seqs), dtype=bool)
            gone[[self._doc_of_seq[seq] for seq in removed if seq in self._doc_of_seq]] = True
            keep = ~gone[docs]
            terms, docs, tfs = terms[keep], docs[keep], tfs[keep]
            renumbered = np.cumsum(~gone) - 1
            docs = renumbered[docs]
            lengths = [n for n, out in zip(self._doc_lengths, gone, strict=True) if not out]
            self._doc_seqs = [s for s, out in zip(self._doc_seqs, gone, strict=True) if not out]
            self._doc_lengths = lengths
            self._doc_of_seq = {seq: doc for doc, seq in enumerate(self._doc_seqs)}
            self._total_length = sum(lengths)
            self._arrays = None
            used = np.unique(terms)  # words only a removed document held are forgotten
            self._terms = [self._terms[t] for t in used.tolist()]
            self._term_id = {term: index for index, term in enumerate(self._terms)}
            terms = np.searchsorted(used, terms)
        order = np.lexsort((docs, terms))
        self._docs = docs[order]
        self._tfs = tfs[order]
        per_term = np.bincount(terms, minlength=len(self._terms))
        self._offsets = np.concatenate(([0], np.cumsum(per_term))).astype(np.int64)
        self._pending = {}
        self._pending_count = 0

    # --- persistence ------------------------------------------------------------

    def _load(self) -> None:
        assert self._files is not None
        index_file, meta_file = self._files
        if not (index_file.is_file() and meta_file.is_file()):
            return
        meta = json.loads(meta_file.read_text(encoding="utf-8"))
        if (
            meta.get("principal_sha256") != principal_digest(self.principal)
            or meta.get("analysis") != ANALYSIS_VERSION
        ):
            return  # another principal's digest prefix or analysis: rebuild from the graph
        with np.load(index_file, allow_pickle=False) as stored:
            vocabulary = bytes(stored["terms"]).decode("utf-8")
            self._terms = vocabulary.split("\n") if vocabulary else []
            self._offsets = stored["offsets"].astype(np.int64)
            self._docs = stored["docs"].astype(np.int64)
            self._tfs = stored["tfs"].astype(np.int64)
            self._doc_seqs = stored["doc_seqs"].tolist()
            self._doc_lengths = stored["doc_lengths"].tolist()
        self._term_id = {term: index for index, term in enumerate(self._terms)}
        self._doc_of_seq = {seq: doc for doc, seq in enumerate(self._doc_seqs)}
        self._total_length = sum(self._doc_lengths)
        self._arrays = None
        self.watermark = int(meta["watermark"])
        meta_file.touch()  # used now: the cache budget evicts least recently used views

    def _save(self) -> None:
        if self._files is None:
            return
        assert self._directory is not None
        index_file, meta_file = self._files
        if self._pending:
            self._merge()  # the file holds the base only
        make_private_dir(self._directory)
        make_private_dir(index_file.parent)
        buffer = io.BytesIO()
        np.savez(
            buffer,
            terms=np.frombuffer("\n".join(self._terms).encode("utf-8"), dtype=np.uint8),
            offsets=self._offsets,
            docs=self._docs.astype(np.int32),
            tfs=self._tfs.astype(np.int32),
            doc_seqs=np.array(self._doc_seqs, dtype=np.int64),
            doc_lengths=np.array(self._doc_lengths, dtype=np.int32),
        )
        temporary = index_file.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(buffer.getvalue())
        temporary.chmod(PRIVATE_FILE_MODE)
        temporary.replace(index_file)
        meta = {
            "principal_sha256": principal_digest(self.principal),
            "surface": self.surface,
            "analysis": ANALYSIS_VERSION,
            "watermark": self.watermark,
            "count": self.count,
        }
        temporary = meta_file.with_suffix(f".{os.getpid()}.tmp")
        write_private_text(temporary, json.dumps(meta) + "\n")
        temporary.replace(meta_file)
        sweep(self._directory, cache_budget())

    # --- catching up --------------------------------------------------------------

    def sync(self) -> int:
        """Applies every event after the watermark; returns how many it applied."""
        with self._lock:
            return self._sync()

    def _sync(self) -> int:
        applied = 0
        created = created_event(self.surface)
        types = [created, *removed_events(self.surface)]
        removed: set[int] = set()
        while True:
            events = self._feed(self.watermark, types, SYNC_BATCH)
            if not events:
                break
            for event in events:
                if not event.node_seq:
                    continue
                if event.type == created:
                    removed.discard(event.node_seq)
                    self._add(event.node_seq, event.lexical_text)
                else:
                    removed.add(event.node_seq)
            self.watermark = events[-1].seq
            applied += len(events)
        if removed:
            self._merge(removed)
        elif self._pending_count > max(_MERGE_MIN, len(self._docs) // MERGE_SHARE):
            self._merge()
        if applied:
            self._save()
        return applied

    def rebuild(self) -> int:
        """Forgets the view and rebuilds it from the graph; returns the events applied."""
        with self._lock:
            self._clear()
            return self._sync()

    # --- searching ----------------------------------------------------------------

    def _doc_arrays(self) -> tuple[Ints, Floats]:
        """(creation seqs, lengths) of the documents, by position."""
        if self._arrays is None:
            self._arrays = (
                np.array(self._doc_seqs, dtype=np.int64),
                np.array(self._doc_lengths, dtype=np.float64),
            )
        return self._arrays

    def _postings(self, term_id: int) -> tuple[Ints, Ints]:
        start, end = (
            (int(self._offsets[term_id]), int(self._offsets[term_id + 1]))
            if term_id + 1 < len(self._offsets)
            else (0, 0)
        )
        docs, tfs = self._docs[start:end], self._tfs[start:end]
        flat = self._pending.get(term_id)
        if flat:
            pairs = np.array(flat, dtype=np.int64).reshape(-1, 2)
            docs, tfs = np.concatenate((docs, pairs[:, 0])), np.concatenate((tfs, pairs[:, 1]))
        return docs, tfs

    def search(self, query: str, limit: int, within: Collection[int] | None = None) -> list[Scored]:
        """The ``limit`` best documents for ``query`` by BM25, best first (ties by seq).

        Args:
            query: The user's text.
            limit: How many at most.
            within: Only these creation seqs compete (the statistics stay the view's).
        """
        return self.search_terms(query_terms(query), limit, within)

    def search_terms(
        self, terms: Sequence[str], limit: int, within: Collection[int] | None = None
    ) -> list[Scored]:
        """The ``limit`` best documents for analysed query ``terms`` (see :meth:`search`)."""
        with self._lock:
            count = self.count
            if not count or limit <= 0:
                return []
            all_seqs, lengths = self._doc_arrays()
            norm = K1 * (1 - B + B * lengths / (self._total_length / count))
            docs_per_term: list[Ints] = []
            weights_per_term: list[Floats] = []
            for term in dict.fromkeys(terms):
                term_id = self._term_id.get(term)
                if term_id is None:
                    continue
                docs, tfs = self._postings(term_id)
                if not len(docs):
                    continue
                idf = np.log(1 + (count - len(docs) + 0.5) / (len(docs) + 0.5))
                tf = tfs.astype(np.float64)
                docs_per_term.append(docs)
                weights_per_term.append(idf * tf * (K1 + 1) / (tf + norm[docs]))
            if not docs_per_term:
                return []
            found, slot = np.unique(np.concatenate(docs_per_term), return_inverse=True)
            scores = np.bincount(slot, weights=np.concatenate(weights_per_term))
            seqs = all_seqs[found]
        if within is not None:
            kept = np.isin(seqs, np.fromiter(within, dtype=np.int64, count=len(within)))
            scores, seqs = scores[kept], seqs[kept]
        if len(scores) > limit:  # keep every document tied with the last one kept
            floor = np.partition(scores, len(scores) - limit)[len(scores) - limit]
            kept = scores >= floor
            scores, seqs = scores[kept], seqs[kept]
        order = np.lexsort((seqs, -scores))[:limit]
        return [Scored(int(seqs[i]), float(scores[i])) for i in order]
