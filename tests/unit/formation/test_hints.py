"""Which episodes a formation hint's subject finds, and what consuming it records."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graphmem.formation.hints import (
    HintMatcher,
    episode_terms,
    mentions,
    subject_terms,
)
from graphmem.models import (
    ConsolidationResult,
    Episode,
    EpisodeKind,
    FormationHint,
    HintState,
    Outcome,
    Trust,
)

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _episode(episode_id: str, title: str, **items: list[str]) -> Episode:
    parts = {
        part: items.get(part, [])
        for part in (
            "observations",
            "inferences",
            "decisions",
            "failed_attempts",
            "unresolved",
        )
    }
    return Episode(
        id=episode_id,
        principal="alice",
        project="billing",
        kind=EpisodeKind.TASK,
        title=title,
        outcome=Outcome.NONE,
        trust=Trust.TRUSTED,
        paths=[],
        commits=[],
        recorded_at=NOW,
        seq=1,
        **parts,
    )


def _hint(hint_id: str, subject: str) -> FormationHint:
    return FormationHint(
        id=hint_id,
        subject=subject,
        query=subject,
        misses=3,
        first_at=NOW,
        last_at=NOW,
        created_at=NOW,
        expires_at=NOW + timedelta(days=30),
        state=HintState.OPEN,
    )


def test_a_subject_is_its_content_words_stemmed() -> None:
    assert subject_terms("how do we round invoices") == {"round", "invoic"}
    assert subject_terms("what is the deploy day") == {"deploy", "day"}
    assert subject_terms("what") == {"what"}  # nothing but function words: keep them


def test_an_episode_is_on_a_subject_when_it_holds_every_content_word() -> None:
    words = episode_terms(
        _episode("e1", "Rounding fixed", observations=["invoice totals round half-up"])
    )
    assert mentions(subject_terms("how do we round invoices"), words)
    assert mentions(subject_terms("invoice rounding"), words)
    assert not mentions(subject_terms("invoice currency rounding"), words)
    assert not mentions(frozenset(), words)


def test_every_structured_part_and_the_text_count() -> None:
    for part in ("observations", "inferences", "decisions", "failed_attempts", "unresolved"):
        episode = _episode("e1", "Untitled", **{part: ["deploy day: Fridays"]})
        assert mentions(subject_terms("deploy day"), episode_terms(episode)), part
    assert mentions(subject_terms("deploy day"), episode_terms(_episode("e2", "Deploy day")))


def test_the_matcher_records_episodes_and_what_they_formed_per_hint() -> None:
    matcher = HintMatcher([_hint("h1", "deploy day"), _hint("h2", "invoice rounding")])
    on_deploy = _episode("e1", "Deploys", decisions=["deploy day: Fridays"])
    on_both = _episode("e2", "Invoices are rounded on deploy day")
    on_neither = _episode("e3", "Lunch")
    assert matcher.matching(on_deploy) == ["h1"]
    assert matcher.matching(on_both) == ["h1", "h2"]
    assert matcher.matching(on_neither) == []
    matcher.record(["h1"], ConsolidationResult(episode_id="e1", created=["b1"]))
    matcher.record(["h1", "h2"], ConsolidationResult(episode_id="e2", reinforced=["b1"]))
    outcomes = {outcome.hint_id: outcome for outcome in matcher.outcomes()}
    assert outcomes["h1"].episodes == ["e1", "e2"] and outcomes["h1"].formed == ["b1"]
    assert outcomes["h2"].episodes == ["e2"] and outcomes["h2"].formed == ["b1"]
    assert matcher.rows() == [
        {"id": "h1", "episodes": ["e1", "e2"], "formed": ["b1"]},
        {"id": "h2", "episodes": ["e2"], "formed": ["b1"]},
    ]


def test_a_hint_nothing_matched_is_still_consumed_with_nothing() -> None:
    matcher = HintMatcher([_hint("h1", "quantum flux")])
    assert matcher.rows() == [{"id": "h1", "episodes": [], "formed": []}]
    assert not HintMatcher([])
