"""The formation gates without a database: each gate on and off, over an in-memory
context (what the store and the semantic view would answer)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

import numpy as np

from graphmem.content import statement_digest
from graphmem.formation.extract import Candidate, StructuredExtractor
from graphmem.formation.gates import Decision, Neighbours, Survivor, decide, replaced_conflicts
from graphmem.models import (
    Authority,
    BeliefState,
    BeliefType,
    CorrectionKind,
    Episode,
    EpisodeKind,
    EvidenceRole,
    FormationPolicy,
    Outcome,
    Sensitivity,
    Trust,
)
from graphmem.store.formation import HeldBack, LiveBelief, Slot, StoredCorrection
from graphmem.vectors.protocol import Vectors

EPISODE_ID = "01a230d6-c141-7277-87f4-60f7710e9f0a"
HELD_EPISODE = "01a230d6-c141-7277-87f4-60f7710e9f0b"
CACHE_CORRECTED = StoredCorrection(
    CorrectionKind.CHANGED,
    BeliefType.FACT,
    None,
    "The cache lives for 5 minutes",
    "The cache lives for 10 minutes",
    None,
)
"""A ``changed`` correction: the cache lives for 10 minutes, not 5."""


def _embed(texts: Sequence[str]) -> Vectors:
    """Bag of words hashed into 64 dimensions: the same words, cosine 1."""
    rows = np.zeros((len(texts), 64), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in text.lower().split():
            rows[row, int(hashlib.sha256(word.encode()).hexdigest(), 16) % 64] += 1.0
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.clip(norms, 1e-9, None)


@dataclass
class Context:
    """An in-memory FormationContext."""

    forgotten_digests: set[str] = field(default_factory=set)
    stored_corrections: list[StoredCorrection] = field(default_factory=list)
    live: list[LiveBelief] = field(default_factory=list)
    holders: dict[Slot, tuple[str, Authority]] = field(default_factory=dict)
    held: list[HeldBack] = field(default_factory=list)

    def forgotten(self, digests: Sequence[str]) -> set[str]:
        return self.forgotten_digests & set(digests)

    def corrections(self) -> Sequence[StoredCorrection]:
        return self.stored_corrections

    def embed(self, texts: Sequence[str]) -> Vectors:
        return _embed(texts)

    def neighbours(self, vectors: Sequence[Vectors]) -> Neighbours:
        stored = _embed([belief.statement for belief in self.live])
        found: Neighbours = []
        for vector in vectors:
            scored = [
                (belief, float(np.dot(vector, row)))
                for belief, row in zip(self.live, stored, strict=True)
            ]
            found.append(sorted(scored, key=lambda pair: -pair[1])[:10])
        return found

    def slot_holders(self, slots: Sequence[Slot]) -> dict[Slot, tuple[str, Authority]]:
        return {slot: holder for slot, holder in self.holders.items() if slot in slots}

    def held_back(self) -> Sequence[HeldBack]:
        return self.held


def _episode(
    observations: list[str], kind: EpisodeKind = EpisodeKind.SESSION, trust: Trust = Trust.TRUSTED
) -> Episode:
    return Episode(
        id=EPISODE_ID,
        principal="alice",
        project="billing",
        kind=kind,
        title="t",
        outcome=Outcome.NONE,
        trust=trust,
        observations=observations,
        inferences=[],
        decisions=[],
        failed_attempts=[],
        unresolved=[],
        paths=[],
        commits=[],
        recorded_at=datetime.now(UTC),
        seq=1,
    )


def _run(episode: Episode, context: Context, **switches: bool) -> Decision:
    policy = FormationPolicy.model_validate(switches)
    return decide(episode, StructuredExtractor().extract(episode), policy, context)


def _statements(decision: Decision) -> list[str]:
    return [belief.statement for _, belief, _ in decision.writes.created]


def _gates(decision: Decision) -> list[str]:
    return [rejected.gate for rejected in decision.rejected]


def test_trust_gate_holds_back_untrusted_episodes() -> None:
    episode = _episode(["The API returns 429 when throttled"], trust=Trust.UNTRUSTED)
    held = _run(episode, Context())
    assert _statements(held) == [] and _gates(held) == ["trust"]
    assert held.writes.rejections[0]["gate"] == "trust"
    assert _statements(_run(episode, Context(), trust_gate=False)) == [
        "The API returns 429 when throttled"
    ]


def test_rejection_gate_applies_tombstones_and_corrections() -> None:
    episode = _episode(
        ["Deploys happen on Fridays", "The cache lives for 5 minutes", "Logs go to stdout"]
    )
    context = Context(
        forgotten_digests={statement_digest("Deploys happen on Fridays")},
        stored_corrections=[
            CACHE_CORRECTED,
            StoredCorrection(
                CorrectionKind.NOT_TRUE, BeliefType.FACT, None, "Logs go to stdout", None, None
            ),
        ],
    )
    decided = _run(episode, context)
    assert _statements(decided) == ["The cache lives for 10 minutes"]
    assert decided.writes.created[0][1].authority is Authority.USER  # corrected by a user
    assert _gates(decided) == ["rejection", "rejection"]
    assert len(_statements(_run(episode, context, rejection_gate=False))) == 3


def test_novelty_gate_reinforces_instead_of_copying() -> None:
    live = LiveBelief(7, "b-live", BeliefType.FACT, "Invoices round half even", None)
    episode = _episode(["Invoices round half even", "Refunds take 3 days", "Refunds take 3 days"])
    decided = _run(episode, Context(live=[live]))
    assert _statements(decided) == ["Refunds take 3 days"]
    assert decided.reinforced == ["b-live"]
    assert decided.writes.reinforcements == [
        {"belief_id": "b-live", "episode_id": EPISODE_ID, "role": "observation"}
    ]
    assert [(r.gate, r.similar_to) for r in decided.rejected] == [
        ("novelty", "b-live"),
        ("novelty", None),  # the episode's own repeat
    ]
    unchecked = _run(episode, Context(live=[live]), novelty_gate=False)
    assert len(_statements(unchecked)) == 3 and unchecked.reinforced == []


def test_novelty_keeps_contradicting_numbers_apart() -> None:
    stored = "Refunds take 3 days to clear at the bank"
    asked = "Refunds take 5 days to clear at the bank"
    assert float(np.dot(*_embed([stored, asked]))) >= 0.85  # similar enough to merge
    live = LiveBelief(7, "b-live", BeliefType.FACT, stored, None)
    decided = _run(_episode([asked]), Context(live=[live]))
    assert _statements(decided) == [asked] and decided.reinforced == []


def test_cap_gate_limits_new_beliefs_per_episode_kind() -> None:
    observations = [f"Fact number {word}" for word in ("one", "two", "three", "four", "five")]
    episode = _episode(observations, kind=EpisodeKind.MESSAGE)  # cap 3
    capped = _run(episode, Context())
    assert len(_statements(capped)) == 3 and _gates(capped) == ["cap", "cap"]
    assert len(_statements(_run(episode, Context(), cap_gate=False))) == 5


def test_resolve_gate_supersedes_or_flags_by_authority() -> None:
    episode = _episode(["deploy day: Mondays"])
    slot = ("deploy day", BeliefType.FACT)
    newer = _run(episode, Context(holders={slot: ("b-agent", Authority.AGENT)}))
    new_id = newer.created[0]
    assert newer.writes.supersessions == [("b-agent", new_id, "formation: newer statement")]
    weaker = _run(episode, Context(holders={slot: ("b-user", Authority.USER)}))
    assert weaker.writes.conflicts == [(weaker.created[0], "b-user")]
    assert weaker.writes.supersessions == []
    off = _run(episode, Context(holders={slot: ("b-agent", Authority.AGENT)}), resolve_gate=False)
    assert off.writes.supersessions == [] and off.writes.conflicts == []


def test_a_trusted_episode_affirms_held_back_evidence() -> None:
    held = HeldBack(
        "The API returns 429 when throttled",
        None,
        BeliefType.FACT,
        HELD_EPISODE,
        EvidenceRole.OBSERVATION,
    )
    decided = _run(_episode(["The API returns 429 when throttled"]), Context(held=[held]))
    belief_id = decided.created[0]
    assert {"belief_id": belief_id, "episode_id": HELD_EPISODE, "role": "observation"} in (
        decided.writes.reinforcements
    )


def test_a_correction_that_rewrites_into_forgotten_content_forms_nothing() -> None:
    episode = _episode(["The cache lives for 5 minutes"])
    context = Context(
        forgotten_digests={statement_digest("The cache lives for 10 minutes")},
        stored_corrections=[CACHE_CORRECTED],
    )
    decided = _run(episode, context)
    assert _statements(decided) == [] and _gates(decided) == ["rejection"]


def test_a_formed_belief_is_as_sensitive_as_its_episode() -> None:
    for level in (Sensitivity.CONFIDENTIAL, Sensitivity.SECRET, Sensitivity.PUBLIC):
        episode = _episode(["Acme's renewal discount is 18 percent"])
        decided = _run(episode.model_copy(update={"sensitivity": level}), Context())
        assert [belief.sensitivity for _, belief, _ in decided.writes.created] == [level]


def test_a_rule_that_replaces_a_tool_conflicts_with_what_still_names_it() -> None:
    def live(n: int, statement: str, kind: BeliefType, origins: tuple[str, ...]) -> LiveBelief:
        return LiveBelief(n, f"b-{n}", kind, statement, None, origins)

    near = [
        live(1, "We use npm: always install with `npm install`.", BeliefType.PREFERENCE, ("shop",)),
        live(2, "The project's tests run with `npm test`.", BeliefType.FACT, ("shop",)),
        live(3, "`npm test` failed with X; it passed after Y.", BeliefType.LESSON, ("shop",)),
        live(4, "Install with `npm install`.", BeliefType.PREFERENCE, ("other",)),
        live(5, "The project's tests run with `pnpm test`.", BeliefType.FACT, ("shop",)),
    ]
    rule = Candidate(
        "Use `pnpm install` from now on.",
        BeliefType.PREFERENCE,
        BeliefState.PROVISIONAL,
        EvidenceRole.DECISION,
        replaces=("npm",),
    )
    survivor = Survivor(rule, _embed([rule.statement])[0], [(b, 0.8) for b in near])
    # Not the fix (what happened stays true), not another project's, not pnpm's.
    assert replaced_conflicts([("b-new", survivor)], "shop") == [
        ("b-new", "b-1"),
        ("b-new", "b-2"),
    ]
    plain = Survivor(replace(rule, replaces=()), survivor.vector, survivor.near)
    assert replaced_conflicts([("b-new", plain)], "shop") == []
