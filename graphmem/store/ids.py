"""Client-generated ids: UUIDv7 strings, which sort by creation time."""

from __future__ import annotations

import secrets
import threading
import time
import uuid

_lock = threading.Lock()
_last = 0


def new_id() -> str:
    """Returns a new UUIDv7 (RFC 9562) as a lowercase canonical string.

    The 48-bit millisecond timestamp is followed by 12 bits of sub-millisecond time
    (RFC 9562 method 3), bumped when needed so ids from one process strictly increase.
    """
    global _last
    with _lock:
        now = time.time_ns()
        stamp = max(now // 1_000_000 << 12 | (now % 1_000_000) * 4096 // 1_000_000, _last + 1)
        _last = stamp
    value = (stamp & ((1 << 60) - 1)) >> 12 << 80  # unix_ts_ms
    value |= 0x7 << 76  # version
    value |= (stamp & 0xFFF) << 64  # rand_a: sub-millisecond fraction
    value |= 0b10 << 62  # variant
    value |= secrets.randbits(62)
    return str(uuid.UUID(int=value))
