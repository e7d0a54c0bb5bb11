"""Ids are UUIDv7: version 7, RFC variant, sortable by creation time."""

from __future__ import annotations

import re
import time
import uuid

from graphmem.models import ID_PATTERN
from graphmem.store.ids import new_id


def test_ids_are_uuid7_and_strictly_increase_within_a_process() -> None:
    ids = [new_id() for _ in range(10_000)]
    for value in ids[:3]:
        parsed = uuid.UUID(value)
        assert parsed.version == 7 and parsed.variant == uuid.RFC_4122
        assert re.fullmatch(ID_PATTERN, value)
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    millis = int(ids[0].replace("-", "")[:12], 16)
    assert abs(millis - time.time_ns() // 1_000_000) < 5_000
