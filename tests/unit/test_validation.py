"""pydantic failures become InvalidInput naming row, field and rule."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from graphmem.errors import GraphMemError, InvalidInput
from graphmem.models import COMMIT_PATTERN, MAX_BATCH_ROWS, MAX_SEQ, ChangeReason, NewBelief
from graphmem.validation import (
    check_id,
    check_limit,
    check_project,
    check_since,
    parse,
    parse_batch,
    problem_message,
)


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


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("project", "bad name!", "names use letters, digits and . _ : / @ + -"),
        ("evidence", [{"episode_id": "e1", "role": "observation"}], "ids are lowercase UUIDs"),
        ("anchor", {"key": "nope"}, "anchor keys look like"),
    ],
)
def test_patterns_are_told_in_words_and_kept_in_details(
    field: str, value: object, words: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(NewBelief, {"statement": "x", "project": "p", "type": "fact", field: value})
    error = caught.value
    assert words in str(error)
    assert "^" not in str(error)
    assert error.rule == "string_pattern_mismatch"
    assert error.details["pattern"].startswith("^")
    assert error.details["problems"][0]["pattern"] == error.details["pattern"]


def test_commit_patterns_are_told_in_words() -> None:
    problem = {
        "type": "string_pattern_mismatch",
        "loc": ("commits", 0),
        "msg": "String should match pattern '^[0-9a-f]{7,64}$'",
        "input": "xyz",
        "ctx": {"pattern": COMMIT_PATTERN},
    }
    assert problem_message(problem) == (  # type: ignore[arg-type]
        "not valid: commits are 7 to 64 lowercase hexadecimal digits"
    )


def test_other_messages_stay_as_pydantic_words() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(NewBelief, {"statement": "x" * 5_000, "project": "p", "type": "fact"})
    assert "at most 4000 characters" in str(caught.value)


@pytest.mark.parametrize(
    ("check", "value", "field", "rule"),
    [
        (lambda v: check_id(v, "belief_id"), "not-an-id", "belief_id", "id"),
        (lambda v: check_id(v, "trace_id"), 7, "trace_id", "id"),
        (check_project, "has space", "project", "pattern"),
        (check_project, None, "project", "pattern"),
        (check_limit, 0, "limit", "range"),
        (check_limit, True, "limit", "range"),
        (check_limit, MAX_BATCH_ROWS + 1, "limit", "range"),
        (check_since, -1, "since", "range"),
        (check_since, "7", "since", "range"),
        (
            lambda v: parse_batch(NewBelief, v, "beliefs"),
            range(MAX_BATCH_ROWS + 1),
            "beliefs",
            "max_rows",
        ),
    ],
)
def test_checks_name_the_field_and_rule(
    check: Callable[[object], object], value: object, field: str, rule: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        check(value)
    assert (caught.value.field, caught.value.rule) == (field, rule)
    assert str(caught.value).startswith(f"{field}: ")


def test_checks_return_what_they_accept() -> None:
    an_id = "0190c6f2-8e4b-7a3d-9c1e-5f2a6b7c8d9e"
    assert check_id(an_id, "belief_id") == an_id
    assert check_project("billing-api") == "billing-api"
    assert (check_limit(1), check_limit(MAX_BATCH_ROWS)) == (1, MAX_BATCH_ROWS)
    assert (check_since(0), check_since(MAX_SEQ)) == (0, MAX_SEQ)
    reasons = parse_batch(ChangeReason, iter([{"reason": "moved"}]), "rows")
    assert reasons == [ChangeReason(reason="moved")]


def test_parse_batch_names_the_row_that_breaks_a_rule() -> None:
    good = {"statement": "x", "project": "p", "type": "fact"}
    with pytest.raises(InvalidInput) as caught:
        parse_batch(NewBelief, [good, {**good, "confidence": 3}], "beliefs")
    assert (caught.value.row, caught.value.field) == (1, "confidence")
