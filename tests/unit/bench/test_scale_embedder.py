"""`bench scale --embedder` is checked before anything is written."""

from __future__ import annotations

import pytest

from graphmem.bench.scale import EMBEDDER_CHOICES, run_growth_bench
from graphmem.errors import InvalidInput


def test_an_unknown_embedder_names_the_field_and_the_choices() -> None:
    with pytest.raises(InvalidInput) as raised:
        run_growth_bench([10], projects=1, embedder="word2vec")
    assert raised.value.details == {"field": "embedder", "rule": "enum"}
    assert all(choice in raised.value.message for choice in EMBEDDER_CHOICES)
