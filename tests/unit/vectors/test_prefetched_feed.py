"""One read of the event log serving both views of a surface: graphmem.vectors.views.prefetched."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.store.events import ViewEvent
from graphmem.vectors.views import prefetched, view_event_types

TYPES = view_event_types("belief")


def _events(seqs: Sequence[int]) -> list[ViewEvent]:
    return [ViewEvent(seq=s, type=TYPES[0], node_seq=s, text=f"t{s}") for s in seqs]


class Log:
    """An event log that counts the reads it answers."""

    def __init__(self, seqs: Sequence[int]) -> None:
        self.events = _events(seqs)
        self.reads: list[tuple[int, int]] = []

    def read(self, after: int, types: Sequence[str], most: int) -> list[ViewEvent]:
        self.reads.append((after, most))
        return [e for e in self.events if e.seq > after and e.type in types][:most]


def _drain(feed_after: int, feed: object, limit: int) -> list[int]:
    """What a view's catch-up loop reads through ``feed`` from ``feed_after``."""
    assert callable(feed)
    seen: list[int] = []
    watermark = feed_after
    while True:
        events = feed(watermark, TYPES, limit)
        if not events:
            return seen
        seen += [e.seq for e in events]
        watermark = events[-1].seq


def test_two_views_at_one_watermark_share_one_read() -> None:
    log = Log([3, 5, 8])
    first = log.read(2, TYPES, 10)
    feed = prefetched(first, 2, TYPES, 10, log.read)
    assert _drain(2, feed, 10) == [3, 5, 8]
    assert _drain(2, feed, 10) == [3, 5, 8]
    assert log.reads == [(2, 10)]  # the prefetch only: the log was complete


def test_a_view_ahead_of_the_read_gets_only_what_it_has_not_seen() -> None:
    log = Log([3, 5, 8])
    feed = prefetched(log.read(2, TYPES, 10), 2, TYPES, 10, log.read)
    assert _drain(5, feed, 10) == [8]
    assert len(log.reads) == 1


def test_a_view_behind_the_read_reads_for_itself() -> None:
    log = Log([1, 3, 5, 8])
    feed = prefetched(log.read(2, TYPES, 10), 2, TYPES, 10, log.read)
    assert _drain(0, feed, 10) == [1, 3, 5, 8]
    assert log.reads[1] == (0, 10)


def test_a_full_batch_is_followed_by_real_reads() -> None:
    log = Log(range(1, 8))
    feed = prefetched(log.read(0, TYPES, 3), 0, TYPES, 3, log.read)
    assert _drain(0, feed, 3) == list(range(1, 8))
    assert log.reads == [(0, 3), (3, 3), (6, 3), (7, 3)]


def test_other_types_or_a_smaller_limit_go_to_the_log() -> None:
    log = Log([3])
    feed = prefetched(log.read(0, TYPES, 10), 0, TYPES, 10, log.read)
    assert feed(0, ["episode.created"], 10) == []
    assert feed(0, TYPES, 5) == log.events
    assert log.reads == [(0, 10), (0, 10), (0, 5)]
