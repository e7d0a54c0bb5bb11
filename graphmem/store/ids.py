"""Client-generated ids: UUIDv7 strings, which sort by creation time."""

from __future__ import annotations

import secrets
import time
import uuid


def new_id() -> str:
    """Returns a new UUIDv7 (RFC 9562) as a lowercase canonical string."""
    unix_ms = time.time_ns() // 1_000_000
    value = (unix_ms & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76  # version
    value |= secrets.randbits(12) << 64
    value |= 0b10 << 62  # variant
    value |= secrets.randbits(62)
    return str(uuid.UUID(int=value))
