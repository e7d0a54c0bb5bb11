"""Sensitivity levels: their order, parsing, the levels a ceiling admits, and how a secret
in a write's text raises its level."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem.errors import InvalidInput
from graphmem.trust.sensitivity import (
    DEFAULT_SENSITIVITY,
    Sensitivity,
    effective,
    levels_up_to,
    parse_sensitivity,
)

A_SECRET = "DB_PASSWORD=s3cr3t!Q9"


def test_levels_are_totally_ordered() -> None:
    assert [level.rank for level in Sensitivity] == [0, 1, 2, 3]
    assert [level.value for level in Sensitivity] == [
        "public",
        "internal",
        "confidential",
        "secret",
    ]
    assert DEFAULT_SENSITIVITY is Sensitivity.INTERNAL
    assert Sensitivity.SECRET == "secret"


@pytest.mark.parametrize(
    ("ceiling", "levels"),
    [
        (Sensitivity.PUBLIC, ["public"]),
        (Sensitivity.INTERNAL, ["public", "internal"]),
        (Sensitivity.CONFIDENTIAL, ["public", "internal", "confidential"]),
        (Sensitivity.SECRET, ["public", "internal", "confidential", "secret"]),
    ],
)
def test_levels_up_to_a_ceiling_are_in_order(ceiling: Sensitivity, levels: list[str]) -> None:
    assert levels_up_to(ceiling) == levels
    assert all(type(level) is str for level in levels_up_to(ceiling))  # plain Cypher params


@pytest.mark.parametrize("level", list(Sensitivity))
def test_parse_reads_each_value(level: Sensitivity) -> None:
    assert parse_sensitivity(level.value, "sensitivity") is level


@pytest.mark.parametrize("value", ["Secret", " secret", "top-secret", "", 3, None])
def test_parse_names_the_field_the_rule_and_the_allowed_values(value: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_sensitivity(value, "max_sensitivity")  # type: ignore[arg-type]
    error = caught.value
    assert (error.field, error.rule) == ("max_sensitivity", "enum")
    assert error.details["allowed"] == ["public", "internal", "confidential", "secret"]
    assert str(error).startswith("max_sensitivity: ")
    assert "public, internal, confidential or secret" in str(error)


def test_a_long_bad_value_is_shortened_in_the_message() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_sensitivity("x" * 10_000, "sensitivity")
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize("declared", list(Sensitivity))
def test_a_secret_in_any_text_raises_the_level_to_secret(declared: Sensitivity) -> None:
    assert effective(declared, ["Fixed the flaky test", A_SECRET]) is Sensitivity.SECRET


@pytest.mark.parametrize("declared", list(Sensitivity))
def test_without_a_secret_the_declared_level_stands(declared: Sensitivity) -> None:
    texts = ["Fixed the flaky test", "the password is stored in Vault", "password=<yours>"]
    assert effective(declared, texts) is declared
    assert effective(declared, []) is declared


def test_effective_stops_at_the_first_secret_and_skips_scanning_when_already_secret() -> None:
    scanned: list[str] = []

    def texts() -> Iterator[str]:
        for text in ["plain", A_SECRET, "never read"]:
            scanned.append(text)
            yield text

    assert effective(Sensitivity.PUBLIC, texts()) is Sensitivity.SECRET
    assert scanned == ["plain", A_SECRET]
    scanned.clear()
    assert effective(Sensitivity.SECRET, texts()) is Sensitivity.SECRET
    assert scanned == []
