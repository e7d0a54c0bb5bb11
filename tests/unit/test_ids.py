"""Ids are UUIDv7: version 7, RFC variant, sortable by creation time."""

from __future__ import annotations

import re
import time
import uuid

from graphmem.models import ID_PATTERN
from graphmem.store.ids import new_id


def test_ids_are_uuid7_and_sort_by_time() -> None:
    first = new_id()
    time.sleep(0.002)
    second = new_id()
    for value in (first, second):
        parsed = uuid.UUID(value)
        assert parsed.version == 7 and parsed.variant == uuid.RFC_4122
        assert re.fullmatch(ID_PATTERN, value)
    assert first < second
    assert len({new_id() for _ in range(10_000)}) == 10_000
