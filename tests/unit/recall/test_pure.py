"""Pure recall logic: analysed terms, RRF, weights, ranking order and rendering."""

from __future__ import annotations

import pytest

from graphmem.models import (
    AnchorState,
    BeliefState,
    BeliefType,
    Conflict,
    Decay,
    Portability,
    RecallItem,
    Scope,
)
from graphmem.recall.fusion import (
    ARM_WEIGHTS,
    RANK_DAMPING,
    REPLY_CONTEXT,
    SCORE_FLOORS,
    SESSION_CONTEXT,
    SESSION_REACH,
    fuse,
    question_share,
    reciprocal_rank_fusion,
    with_reply_context,
    with_session_context,
)
from graphmem.recall.ranking import (
    DECAY_HALF_LIFE,
    DECAY_HORIZON,
    STALE_WEIGHT,
    Weighed,
    by_score,
    confidence_band,
    decay_weight,
    rank,
    scope_weight,
)
from graphmem.recall.render import render_beliefs
from graphmem.recall.terms import MAX_QUERY_TERMS, document_terms, query_terms


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            'title:(foo OR bar) AND NOT "baz"~2 \\ +x -y [a TO z] *',
            ["titl", "foo", "bar", "baz", "2", "x", "y", "z"],
        ),
        ("When did Caroline go to the support group?", ["carolin", "go", "support", "group"]),
        ("what is it?", ["what", "is", "it"]),  # nothing but function words: keep them all
        ("'}) MATCH (n) DETACH DELETE n //", ["match", "n", "detach", "delet"]),
        ("   ", []),
        ("Ünïcödé 中文", ["ünïcödé", "中文"]),
        ("Caroline's paintings, painting", ["carolin", "paint"]),
        # The asker's own words: first-person singular pronouns stay, "you" goes.
        (
            "Which breed did I say my dog is, you remember?",
            ["breed", "i", "say", "my", "dog", "rememb"],
        ),
    ],
)
def test_query_terms_are_distinct_analysed_words(text: str, expected: list[str]) -> None:
    assert query_terms(text) == expected


def test_document_terms_keep_repeats_and_function_words() -> None:
    assert document_terms("The dog and the dogs") == ["the", "dog", "and", "the", "dog"]


def test_query_terms_are_capped() -> None:
    assert len(query_terms(" ".join(f"word{i}" for i in range(10_000)))) == MAX_QUERY_TERMS


def test_rrf_sums_reciprocal_ranks_from_one() -> None:
    scores = reciprocal_rank_fusion({"lexical": ["a", "b", "a"], "semantic": ["b", "c"]})
    assert scores["a"] == pytest.approx(1 / 61)
    assert scores["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert scores["c"] == pytest.approx(1 / 62)


def test_fusion_weighs_scores_within_each_list_and_ranks_for_the_others() -> None:
    ranked = {"lexical": ["a", "b", "a"], "semantic": ["b", "c"], "structured": ["c", "d"]}
    scores = {"lexical": {"a": 8.0, "b": 2.0}, "semantic": {"b": 0.6, "c": 0.4}}
    fused, ranks = fuse(ranked, scores)
    lexical, semantic, ordered = (ARM_WEIGHTS[a] for a in ("lexical", "semantic", "structured"))
    floor = SCORE_FLOORS["semantic"]
    assert fused["a"] == pytest.approx(lexical)  # the best hit of its list counts 1
    assert fused["b"] == pytest.approx(lexical * 2 / 8 + semantic)
    assert fused["c"] == pytest.approx(semantic * (0.4 - floor) / (0.6 - floor) + ordered)
    assert fused["d"] == pytest.approx(ordered * (RANK_DAMPING + 1) / (RANK_DAMPING + 2))
    assert ranks["b"] == {"lexical": 2, "semantic": 1}


def test_fusion_of_one_arm_keeps_its_order() -> None:
    ranked = {"lexical": ["x", "y", "z"]}
    fused, _ = fuse(ranked, {"lexical": {"x": 3.0, "y": 2.0, "z": 1.0}})
    assert sorted(fused, key=lambda i: -fused[i]) == ["x", "y", "z"]


def test_question_share_weighs_asking_sentences_by_length() -> None:
    assert question_share("What pet do you have?") == 1.0
    assert question_share("No question here.") == 0.0
    assert question_share(None) == question_share("") == 0.0
    # "I moved." (8 characters) and "Any tips?" (9): 9 of 17 ask.
    assert question_share("I moved. Any tips?") == pytest.approx(9 / 17)


def test_reply_context_lifts_the_reply_to_a_question_to_its_asking_share() -> None:
    fused = {"ask": 1.0, "reply": 0.3, "statement": 0.8, "half": 0.6, "strong": 0.9}
    asks = {"ask": 1.0, "half": 0.5, "unreplied": 1.0, "statement": 0.0}
    lifted = with_reply_context(
        {**fused, "unreplied": 0.4, "weak": 0.5},
        {**asks, "weak": 1.0},
        {"ask": "reply", "half": "unranked", "statement": "ask", "weak": "strong"},
    )
    assert lifted["reply"] == pytest.approx(REPLY_CONTEXT * 1.0)  # up to the question's
    assert lifted["ask"] == 1.0 and lifted["unreplied"] == 0.4  # askers keep their score
    assert lifted["statement"] == 0.8  # asks nothing, lifts nothing
    # A reply that passed the filters but no arm ranked enters at its floor.
    assert lifted["unranked"] == pytest.approx(REPLY_CONTEXT * 0.5 * 0.6)
    assert lifted["strong"] == 0.9  # already above the floor: unchanged


def test_session_context_adds_the_best_neighbour_under_the_same_parent() -> None:
    assert SESSION_REACH == 1
    fused = {"lead": 1.0, "next": 0.6, "far": 0.9, "alone": 0.5, "orphan": 0.9, "other": 0.8}
    parents = {"lead": "s1", "next": "s1", "far": "s1", "alone": "s2", "orphan": None}
    parents["other"] = "s3"
    places = {"lead": 3, "next": 4, "far": 7, "alone": 0, "orphan": 0, "other": 4}
    with_context = with_session_context(fused, parents, places)
    assert with_context["lead"] == pytest.approx(1.0 + SESSION_CONTEXT * 0.6)
    assert with_context["next"] == pytest.approx(0.6 + SESSION_CONTEXT * 1.0)
    assert with_context["far"] == 0.9  # four places from the nearest hit: out of reach
    assert with_context["alone"] == 0.5  # alone under its parent
    assert with_context["orphan"] == 0.9  # no parent
    assert with_context["other"] == 0.8  # the same place under another parent


def test_scope_weights() -> None:
    assert scope_weight("a", ["a"], Scope.PROJECT, Portability.LOCAL) == 1.0
    assert scope_weight("b", ["a"], Scope.PROJECT, Portability.PORTABLE) == 0.7
    assert scope_weight("b", ["a"], Scope.PROJECT, Portability.CONTEXTUAL) == 0.4
    assert scope_weight("b", ["a"], Scope.PROJECT, Portability.LOCAL) == 0.0
    assert scope_weight("b", ["a"], Scope.PRINCIPAL, Portability.CONTEXTUAL) == 1.0
    assert scope_weight(None, ["a"], Scope.PROJECT, Portability.LOCAL) == 1.0


def test_rank_orders_by_score_then_id_and_keeps_zero_confidence_last() -> None:
    def weighed(i: str, relevance: float, confidence: float = 1.0, anchor: float = 1.0) -> Weighed:
        return Weighed(i, relevance, confidence, BeliefState.ACTIVE, anchor, 1.0)

    ranked = rank(
        [
            weighed("b", 0.016),
            weighed("a", 0.016),
            weighed("z", 0.016, confidence=0.0),
            weighed("d", 0.016, anchor=0.25),
            weighed("weak", 0.001),
        ]
    )
    # a weak match stays (no floor); zero confidence and a drifted anchor rank lower
    assert [c.id for c in ranked] == ["a", "b", "d", "weak", "z"]


def test_every_weight_multiplies_the_score() -> None:
    full = Weighed("a", 0.02, 1.0, BeliefState.ACTIVE, 1.0, 1.0)
    assert full.score == pytest.approx(0.02)
    weighed = Weighed("a", 0.02, 0.5, BeliefState.PROVISIONAL, 0.25, 0.7, decay=0.5, disputed=True)
    assert weighed.score == pytest.approx(0.02 * 0.5 * 0.6 * 0.25 * 0.7 * 0.5 * 0.5)
    stale = Weighed("0", 0.02, 1.0, BeliefState.ACTIVE, 1.0, 1.0, stale=True)
    assert stale.score == pytest.approx(0.02 * STALE_WEIGHT)
    assert [c.id for c in rank([stale, full])] == ["a", "0"]  # below an equal fresh one


def test_by_score_is_a_total_order() -> None:
    assert by_score({"b": 0.1, "a": 0.1, "c": 0.3}) == ["c", "a", "b"]


def test_bands() -> None:
    assert [confidence_band(c) for c in (0.75, 0.74, 0.4, 0.39)] == [
        "high",
        "medium",
        "medium",
        "low",
    ]


def test_render_is_byte_stable_and_shows_origin_outside_it() -> None:
    item = RecallItem(
        id="01a2",
        statement="Use  UTC\nin storage",
        type=BeliefType.LESSON,
        confidence_band="high",
        project="a",
        origins=["a"],
        scope=Scope.PROJECT,
        anchor_state=AnchorState.DRIFTED,
        applies_here=False,
        evidence=[],
        arm_ranks={"lexical": 1},
        score=0.01,
    )
    text = render_beliefs("q", "b", [item], [Conflict(a="01a2", b="01a3")])
    assert text == render_beliefs("q", "b", [item], [Conflict(a="01a2", b="01a3")])
    assert text == (
        'Recalled for "q" (project b):\n'
        "1. [lesson | high] Use UTC in storage\n"
        "   id 01a2; from a; anchor drifted\n"
        "Unresolved conflicts:\n"
        "- 01a2 conflicts with 01a3\n"
    )
    stale = render_beliefs("q", "b", [item.model_copy(update={"stale": True})], [])
    assert stale == (
        'Recalled for "q" (project b):\n'
        "1. [lesson | high] Use UTC in storage\n"
        "   id 01a2; from a; anchor drifted; stale: not confirmed by an episode lately\n"
    )


@pytest.mark.parametrize(
    ("mode", "age", "expected"),
    [
        (Decay.NONE, 1_000_000, 1.0),
        (Decay.LINEAR, 0, 1.0),
        (Decay.LINEAR, DECAY_HORIZON // 2, 0.5),
        (Decay.LINEAR, 3 * DECAY_HORIZON, 0.0),
        (Decay.EXPONENTIAL, DECAY_HALF_LIFE, 0.5),
        (Decay.EXPONENTIAL, 2 * DECAY_HALF_LIFE, 0.25),
        (Decay.EXPONENTIAL, -5, 1.0),  # a belief newer than the measure point: no decay
    ],
)
def test_decay_is_a_pure_function_of_generations(mode: Decay, age: int, expected: float) -> None:
    assert decay_weight(mode, age) == pytest.approx(expected)


def test_decay_reorders_but_never_drops() -> None:
    old = Weighed("a", 0.02, 1.0, BeliefState.ACTIVE, 1.0, 1.0, decay=0.0)
    new = Weighed("b", 0.01, 1.0, BeliefState.ACTIVE, 1.0, 1.0, decay=1.0)
    assert [w.id for w in rank([old, new])] == ["b", "a"]
