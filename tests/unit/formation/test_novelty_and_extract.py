"""Formation's pure parts: the novelty test on labelled pairs, and the extractor."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from graphmem.formation.extract import StructuredExtractor, split_subject
from graphmem.formation.novelty import contradicts, is_duplicate
from graphmem.models import BeliefState, BeliefType, Episode, EvidenceRole, FormationPolicy
from graphmem.vectors.minilm import default_embedder

PAIRS = Path(__file__).resolve().parents[2] / "data" / "novelty_pairs.json"


def test_novelty_gate_on_labelled_pairs_has_full_precision() -> None:
    pairs = json.loads(PAIRS.read_text())
    embedder = default_embedder()
    left = embedder.embed([a for a, _, _ in pairs])
    right = embedder.embed([b for _, b, _ in pairs])
    threshold = FormationPolicy().novelty_threshold
    judged = [
        is_duplicate(a, b, float(np.dot(x, y)), threshold)
        for (a, b, _), x, y in zip(pairs, left, right, strict=True)
    ]
    true_pos = sum(1 for (_, _, dup), said in zip(pairs, judged, strict=True) if dup and said)
    false_pos = sum(1 for (_, _, dup), said in zip(pairs, judged, strict=True) if said and not dup)
    assert false_pos == 0
    assert true_pos / sum(1 for *_, dup in pairs if dup) >= 0.7


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("Timeouts are 30 seconds", "Timeouts are 5 seconds", True),
        (
            "The cache is invalidated on the read path",
            "The cache is invalidated on the write path",
            True,
        ),
        ("Invoices are rounded half-up", "Invoices are rounded half-even", True),
        ("The payments service owns refunds", "Refunds are owned by the payments service", False),
    ],
)
def test_contradiction_guard(a: str, b: str, expected: bool) -> None:
    assert contradicts(a, b) is expected


def test_labels_become_subjects_only_when_short() -> None:
    assert split_subject("deploy day: Fridays") == ("deploy day", "Fridays")
    long_label = "we found out after a long debugging session: it was DNS"
    assert split_subject(long_label) == (None, long_label)
    assert split_subject("See https://example.com for more") == (
        None,
        "See https://example.com for more",
    )


def _episode(**parts: list[str]) -> Episode:
    """A stored episode of project shop holding ``parts`` (the others empty)."""
    empty = ("observations", "inferences", "decisions", "failed_attempts", "unresolved")
    return Episode.model_validate(
        {
            "id": "e",
            "principal": "p",
            "project": "shop",
            "kind": "task",
            "title": "t",
            "outcome": "succeeded",
            "trust": "trusted",
            **{part: [] for part in empty},
            **parts,
            "paths": [],
            "commits": [],
            "recorded_at": datetime(2026, 1, 1, tzinfo=UTC),
            "seq": 1,
        }
    )


def test_structured_parts_map_to_types_states_and_roles() -> None:
    episode = _episode(
        observations=["CI runs on 2 cores"],
        inferences=["flaky tests come from timing"],
        decisions=["test runner: pytest"],
        failed_attempts=["pinning the seed"],
        unresolved=["why DNS is slow"],
    )
    found = [
        (c.type, c.state, c.role, c.subject, c.statement)
        for c in StructuredExtractor().extract(episode)
    ]
    assert found == [
        (BeliefType.FACT, BeliefState.ACTIVE, EvidenceRole.OBSERVATION, None, "CI runs on 2 cores"),
        (
            BeliefType.FACT,
            BeliefState.PROVISIONAL,
            EvidenceRole.INFERENCE,
            None,
            "flaky tests come from timing",
        ),
        (BeliefType.DECISION, BeliefState.ACTIVE, EvidenceRole.DECISION, "test runner", "pytest"),
        (
            BeliefType.DEAD_END,
            BeliefState.ACTIVE,
            EvidenceRole.FAILED_ATTEMPT,
            None,
            "pinning the seed",
        ),
    ]


def test_an_item_quoting_terminal_output_forms_a_plain_statement() -> None:
    episode = _episode(
        observations=["\x1b[31mFAILED\x1b[0m tests/test_tax.py\x07", "\x1b[0m\x1b[2K"],
        failed_attempts=["build: make -j8\x1b]0;done\x07 ran out of memory"],
    )
    found = [(c.subject, c.statement) for c in StructuredExtractor().extract(episode)]
    assert found == [(None, "FAILED tests/test_tax.py"), ("build", "make -j8 ran out of memory")]
