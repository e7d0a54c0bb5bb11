"""pydantic failures become InvalidInput naming row, field and rule."""

from __future__ import annotations

import pytest

from graphmem.errors import GraphMemError, InvalidInput
from graphmem.models import NewBelief
from graphmem.validation import parse


def test_parse_names_row_field_and_rule() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(NewBelief, {"statement": "x", "project": "p", "type": "fact", "confidence": 3}, row=7)
    error = caught.value
    assert (error.row, error.field, error.rule) == (7, "confidence", "less_than_equal")
    assert str(error).startswith("row 7: confidence:")
    assert isinstance(error, GraphMemError)
    assert error.to_dict()["type"] == "InvalidInput"
    assert error.to_dict()["problems"][0]["field"] == "confidence"


def test_parse_rejects_non_mappings() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(NewBelief, ["not", "a", "mapping"])  # type: ignore[arg-type]
    assert caught.value.field == "input"


def test_parse_returns_instances_unchanged() -> None:
    belief = NewBelief(statement="x", project="p", type="fact")
    assert parse(NewBelief, belief) is belief
