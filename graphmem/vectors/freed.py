"""Gives the C allocator's freed memory back to the system after long catch-ups.

Catching a view up reads pages of events (texts, packed vectors, decoded rows), adds
them to FAISS and the lexical index, and frees the page. glibc keeps what was freed
in its heap for later allocations: a client that caught up on a million events held
2,163 MB where a process loading the same views from disk held 1,330 MB, and 1,494 MB
once the freed pages were given back (``graphmem bench scale``, docs/benchmarks.md).
Once enough events were applied since the last time, :func:`applied` asks glibc to
return its free pages (``malloc_trim``); where there is no glibc (musl, macOS) it does
nothing. A release may fall on a recall that catches up its slice: it took 21-74 ms
on a heap of a gigabyte here, once per :data:`RELEASE_AFTER` events.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable
from functools import cache

RELEASE_AFTER = 20_000
"""Events applied, over every view of the process, between two releases.

A release walks the heap (tens of milliseconds at gigabytes); twenty thousand
events take seconds to apply, so it costs a few percent of a long catch-up and
nothing to a recall that applied a few events.
"""

_lock = threading.Lock()
_since_release = 0


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """The C library's ``malloc_trim`` (glibc), or None where it has none."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def applied(events: int) -> bool:
    """Counts events a view applied; returns whether this call released freed memory."""
    global _since_release
    with _lock:
        _since_release += events
        if _since_release < RELEASE_AFTER:
            return False
        _since_release = 0
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
