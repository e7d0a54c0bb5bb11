"""Domain model limits and defaults (no database)."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from graphmem.models import (
    DEFAULT_PORTABILITY,
    MAX_STATEMENT_CHARS,
    BeliefType,
    NewBelief,
    NewEpisode,
    Portability,
)

BASE: dict[str, Any] = {"statement": "ok", "project": "p", "type": "fact"}


def _error(fields: dict[str, Any]) -> tuple[str, str]:
    with pytest.raises(ValidationError) as caught:
        NewBelief.model_validate({**BASE, **fields})
    first = caught.value.errors()[0]
    return ".".join(str(p) for p in first["loc"]), first["type"]


def test_defaults() -> None:
    belief = NewBelief.model_validate(BASE)
    assert belief.confidence == 0.5
    assert belief.state == "active" and belief.authority == "agent"
    assert belief.effective_portability is Portability.CONTEXTUAL


@pytest.mark.parametrize("belief_type", list(BeliefType))
def test_portability_may_be_lowered_never_raised(belief_type: BeliefType) -> None:
    ceiling = DEFAULT_PORTABILITY[belief_type]
    order = [Portability.LOCAL, Portability.CONTEXTUAL, Portability.PORTABLE]
    for portability in order:
        fields = {**BASE, "type": belief_type, "portability": portability}
        if order.index(portability) <= order.index(ceiling):
            assert NewBelief.model_validate(fields).effective_portability is portability
        else:
            assert _error({"type": belief_type, "portability": portability})[0] == "portability"


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"statement": ""}, ("statement", "string_too_short")),
        ({"statement": "x" * (MAX_STATEMENT_CHARS + 1)}, ("statement", "string_too_long")),
        ({"statement": "nul\x00byte"}, ("statement", "value_error")),
        ({"statement": "lone \ud800 surrogate"}, ("statement", "string_unicode")),
        ({"statement": "\n\t "}, ("statement", "value_error")),
        ({"statement": b"bytes"}, ("statement", "string_type")),
        ({"confidence": 1.01}, ("confidence", "less_than_equal")),
        ({"confidence": "0.3"}, ("confidence", "float_type")),
        ({"confidence": float("inf")}, ("confidence", "finite_number")),
        ({"type": "opinion"}, ("type", "enum")),
        ({"authority": "boss"}, ("authority", "enum")),
        ({"state": "retired"}, ("state", "value_error")),
        ({"evidence": ["nope"]}, ("evidence.0.episode_id", "string_pattern_mismatch")),
        ({"anchor": "not a key"}, ("anchor.key", "string_pattern_mismatch")),
        ({"anchor": {"path": "a.py"}}, ("anchor", "value_error")),
        (
            {"anchor": {"path": "a.py", "symbol": "f"}, "anchor_unverifiable": True},
            ("anchor_unverifiable", "value_error"),
        ),
        ({"unknown": 1}, ("unknown", "extra_forbidden")),
        ({"project": ""}, ("project", "string_pattern_mismatch")),
        ({"valid_from": "2026-01-01T00:00:00"}, ("valid_from", "timezone_aware")),
    ],
)
def test_limits_name_field_and_rule(fields: dict[str, Any], expected: tuple[str, str]) -> None:
    assert _error(fields) == expected


def test_episode_limits() -> None:
    episode = NewEpisode.model_validate({"project": "p", "title": "t"})
    assert (episode.kind, episode.outcome, episode.trust) == ("session", "none", "trusted")
    for fields in (
        {"outcome": "won"},
        {"commits": ["not-a-sha"]},
        {"observations": ["x"] * 201},
        {"started_at": "2026-01-02T00:00:00Z", "ended_at": "2026-01-01T00:00:00Z"},
        {"parent": "123"},
    ):
        with pytest.raises(ValidationError):
            NewEpisode.model_validate({"project": "p", "title": "t", **fields})


@given(
    st.text(min_size=1, max_size=200).filter(
        lambda s: (
            s.strip()
            and not any(0xD800 <= ord(c) <= 0xDFFF for c in s)
            and not any(unicodedata.category(c) == "Cc" and c not in "\t\n\r" for c in s)
        )
    )
)
def test_any_clean_text_is_kept_verbatim(text: str) -> None:
    assert NewBelief.model_validate({**BASE, "statement": text}).statement == text


@given(st.characters(categories=["Cc"], exclude_characters="\x00\t\n\r"))  # NUL: any text
def test_a_control_character_is_refused_in_statements_and_titles(control: str) -> None:
    with pytest.raises(ValidationError, match="control_character"):
        NewBelief.model_validate({**BASE, "statement": f"a{control}b"})
    with pytest.raises(ValidationError, match="control_character"):
        NewEpisode.model_validate({"project": "p", "title": f"a{control}b"})
    episode = NewEpisode.model_validate({"project": "p", "title": "t", "text": f"a{control}b"})
    assert episode.text == f"a{control}b"  # an episode's text may quote terminal output


@pytest.mark.parametrize(
    ("path", "kept"),
    [
        ("src/app.py", True),
        ("./src/app.py", True),
        ("a..b/c", True),
        ("../etc/shadow", False),
        ("src/../../etc", False),
        ("src\\..\\..\\etc", False),
        ("/etc/shadow", False),
        ("\\\\server\\share", False),
        ("C:\\Windows", False),
        ("~/.ssh/id_rsa", False),
    ],
)
def test_an_episode_path_stays_inside_the_project(path: str, kept: bool) -> None:
    fields = {"project": "p", "title": "t", "paths": [path]}
    if kept:
        assert NewEpisode.model_validate(fields).paths == [path]
    else:
        with pytest.raises(ValidationError, match="relative_path"):
            NewEpisode.model_validate(fields)
