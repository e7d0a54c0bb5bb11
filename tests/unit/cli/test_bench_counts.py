"""`graphmem bench scale --beliefs`: one count or a comma-separated growth curve."""

from __future__ import annotations

import pytest

from graphmem.cli.bench import _sizes
from graphmem.errors import InvalidInput


def test_counts_are_sorted_deduplicated_and_may_use_underscores() -> None:
    assert _sizes("100000") == [100_000]
    assert _sizes("1_000_000, 10000,100000,10000") == [10_000, 100_000, 1_000_000]


@pytest.mark.parametrize("text", ["", "ten", "100,-5", "0", ",,"])
def test_a_bad_list_names_the_option_and_rule(text: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        _sizes(text)
    assert raised.value.details["field"] == "beliefs"
    assert raised.value.details["rule"] == "positive_int_list"
