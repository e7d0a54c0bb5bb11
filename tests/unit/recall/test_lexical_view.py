"""The lexical view: BM25 over one principal's own documents, caught up from events."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from graphmem.recall.lexical import CANDIDATE_SAMPLE, K1, B, LexicalView, best_positions
from graphmem.store.events import ViewEvent


class Log:
    """An in-memory event log standing in for the principal's ``:MemoryEvent`` feed."""

    def __init__(self) -> None:
        self.events: list[ViewEvent] = []

    def create(
        self, node_seq: int, text: str, subject: str = "", at: datetime | None = None
    ) -> None:
        seq = len(self.events) + 1
        self.events.append(ViewEvent(seq, "belief.created", node_seq, text, subject, at))

    def delete(self, node_seq: int) -> None:
        self.events.append(ViewEvent(len(self.events) + 1, "belief.deleted", node_seq, ""))

    def feed(self, since: int, types: Sequence[str], limit: int) -> list[ViewEvent]:
        return [e for e in self.events if e.seq > since and e.type in types][:limit]


def _view(log: Log, directory: Path | None = None) -> LexicalView:
    view = LexicalView(log.feed, "principal", "belief", directory)
    view.sync()
    return view


def test_scores_are_textbook_bm25_over_the_views_own_documents() -> None:
    log = Log()
    log.create(10, "postgres runs on port 5433")
    log.create(11, "redis runs on port 6379 redis")
    log.create(12, "the billing service talks to postgres")
    hits = _view(log).search("redis port", 10)

    lengths = {10: 5, 11: 6, 12: 6}
    average = sum(lengths.values()) / 3

    def term(df: int, tf: int, length: int) -> float:
        idf = math.log(1 + (3 - df + 0.5) / (df + 0.5))
        return idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average))

    expected = {11: term(1, 2, 6) + term(2, 1, 6), 10: term(2, 1, 5)}
    assert [hit.seq for hit in hits] == [11, 10]
    for hit in hits:
        assert hit.score == pytest.approx(expected[hit.seq])


def test_ties_go_to_the_newer_document_and_the_limit_keeps_the_best() -> None:
    log = Log()
    for seq in (30, 20, 10):
        log.create(seq, "same words here")
    log.create(40, "words")
    view = _view(log)
    assert [hit.seq for hit in view.search("words", 10)] == [40, 30, 20, 10]
    assert [hit.seq for hit in view.search("same", 2)] == [30, 20]


def test_subjects_are_searchable_and_stems_match() -> None:
    log = Log()
    log.create(1, "use the fast path", subject="deployments")
    log.create(2, "nothing relevant")
    assert [hit.seq for hit in _view(log).search("deploying", 5)] == [1]


def test_replayed_events_add_nothing_and_updates_arrive_in_later_syncs() -> None:
    log = Log()
    log.create(1, "alpha beta")
    view = _view(log)
    log.create(2, "beta gamma")
    assert view.sync() == 1
    view.watermark = 0
    view.sync()  # every event again
    assert view.count == 2
    assert [hit.seq for hit in view.search("beta", 5)] == [2, 1]


def test_a_deleted_document_leaves_no_posting_and_no_word(tmp_path: Path) -> None:
    log = Log()
    log.create(1, "the secret codename bluebird")
    log.create(2, "the public roadmap")
    view = _view(log, tmp_path)
    log.delete(1)
    view.sync()
    assert view.search("bluebird", 5) == []
    assert view.count == 1
    assert b"bluebird" not in b"".join(path.read_bytes() for path in tmp_path.rglob("*.npz"))
    assert [hit.seq for hit in view.search("roadmap", 5)] == [2]


def test_a_saved_view_loads_to_the_same_answers(tmp_path: Path) -> None:
    log = Log()
    for seq in range(1, 300):
        log.create(seq, f"note {seq} about module{seq % 7} and service{seq % 11}")
    first = _view(log, tmp_path)
    first.rebuild()  # merges and saves (small views otherwise live in memory only)
    log.create(1000, "a later note about module3")  # after the saved base: replayed
    first.sync()
    again = LexicalView(log.feed, "principal", "belief", tmp_path)
    assert again.watermark < first.watermark and again.count == first.count - 1
    again.sync()
    assert again.watermark == first.watermark and again.count == first.count
    assert again.search("module3 service5", 20) == first.search("module3 service5", 20)
    other = LexicalView(log.feed, "someone else", "belief", tmp_path)
    assert other.count == 0  # never another principal's file
    modes = {path.stat().st_mode & 0o777 for path in tmp_path.rglob("*") if path.is_file()}
    assert modes == {0o600}


def test_pending_and_merged_postings_score_alike() -> None:
    log = Log()
    for seq in range(1, 50):
        log.create(seq, f"word{seq % 5} shared text {seq}")
    pending = _view(log)
    merged = _view(log)
    merged._merge()
    assert pending.search("word2 shared", 30) == merged.search("word2 shared", 30)


def test_postings_added_after_a_search_are_found_by_the_next() -> None:
    log = Log()
    for seq in range(1, 20):
        log.create(seq, f"word{seq % 3} shared text")
    view = _view(log)
    view.search("word1 shared", 50)  # reads (and keeps) the pending postings so far
    for seq in range(20, 40):
        log.create(seq, f"word{seq % 3} shared text")
    view.sync()
    assert view.search("word1 shared", 50) == _view(log).search("word1 shared", 50)
    assert {hit.seq for hit in view.search("word1", 50)} == {s for s in range(1, 40) if s % 3 == 1}


def test_a_deletion_survives_a_failed_catch_up(tmp_path: Path) -> None:
    log = Log()
    log.create(1, "the password is hunter2")
    view = _view(log, tmp_path)
    log.delete(1)
    for seq in range(2, 2_500):  # the deletion and the next batch of events
        log.create(seq, f"filler {seq}")
    calls = 0

    def flaky(since: int, types: Sequence[str], limit: int) -> list[ViewEvent]:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise ConnectionError("the database went away")
        return log.feed(since, types, limit)

    view._feed = flaky
    with pytest.raises(ConnectionError):
        view.sync()
    view.sync()
    assert view.search("hunter2", 5) == []
    files = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert files and b"hunter2" not in b"".join(path.read_bytes() for path in files)


def test_a_damaged_file_is_rebuilt_from_the_log(tmp_path: Path) -> None:
    log = Log()
    for seq in range(1, 2_000):
        log.create(seq, f"word{seq % 13} and more words {seq}")
    view = _view(log, tmp_path)
    view.rebuild()
    (data,) = tmp_path.rglob("*.npz")
    data.write_bytes(data.read_bytes()[:100])
    again = LexicalView(log.feed, "principal", "belief", tmp_path)
    assert again.count == 0
    again.sync()
    assert again.search("word3", 10) == view.search("word3", 10)


def test_search_between_keeps_the_dated_documents_only() -> None:
    log = Log()
    day = datetime(2023, 5, 8, 12, tzinfo=UTC)
    log.create(1, "hiking trip", at=day)
    log.create(2, "hiking trip", at=day + timedelta(days=40))
    log.create(3, "hiking trip")  # undated: never inside a window
    view = _view(log)
    window = (day - timedelta(days=1), day + timedelta(days=1))
    assert [hit.seq for hit in view.search("hiking", 5, between=window)] == [1]
    assert view.latest_time() == day + timedelta(days=40)


def _best_by_sorting(scores: np.ndarray, seqs: np.ndarray, limit: int) -> list[int]:
    matched = [i for i in range(len(scores)) if scores[i] > 0]
    return sorted(matched, key=lambda i: (-scores[i], -seqs[i]))[:limit]


@pytest.mark.parametrize("size", [1, 7, 100, 20_000, 100_000])
@pytest.mark.parametrize("limit", [1, 10, 50])
def test_the_best_positions_are_those_a_full_sort_picks(size: int, limit: int) -> None:
    rng = np.random.default_rng(size + limit)
    # few distinct scores: ties at the last place kept are the rule, as in a small vocabulary
    scores = rng.integers(0, 6, size).astype(np.float64) * 0.5
    seqs = rng.permutation(size * 3)[:size].astype(np.int64)  # distinct, in no order
    assert best_positions(scores, seqs, limit).tolist() == _best_by_sorting(scores, seqs, limit)


def test_when_the_sample_misses_the_matches_every_match_still_competes() -> None:
    scores = np.zeros(200_000)
    stride = len(scores) // CANDIDATE_SAMPLE  # the sample reads every stride-th score
    scores[1::stride] = np.linspace(1, 2, len(scores[1::stride]))  # none of them
    seqs = np.arange(len(scores), dtype=np.int64)
    assert best_positions(scores, seqs, 5).tolist() == _best_by_sorting(scores, seqs, 5)
    assert best_positions(np.zeros(50), seqs[:50], 5).tolist() == []
