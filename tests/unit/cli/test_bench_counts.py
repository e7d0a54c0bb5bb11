"""Count lists (`bench scale --beliefs`, `bench agents --processes`): one or several."""

from __future__ import annotations

import pytest

from graphmem.cli.bench import _counts
from graphmem.errors import InvalidInput


def test_counts_are_sorted_deduplicated_and_may_use_underscores() -> None:
    assert _counts("100000", "beliefs") == [100_000]
    assert _counts("1_000_000, 10000,100000,10000", "beliefs") == [10_000, 100_000, 1_000_000]
    assert _counts("8,1,4,2", "processes") == [1, 2, 4, 8]


@pytest.mark.parametrize("text", ["", "ten", "100,-5", "0", ",,"])
def test_a_bad_list_names_the_option_and_rule(text: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        _counts(text, "processes")
    assert raised.value.details["field"] == "processes"
    assert "--processes" in raised.value.message
    assert raised.value.details["rule"] == "positive_int_list"
