"""What an injection shows and how it reads (pure: no database, no tokenizer)."""

from __future__ import annotations

from graphmem.inject import present
from graphmem.models import AnchorState, BeliefType, RecallItem, Scope
from graphmem.recall.presentation import Offered

TRACE = "0193a8f2-0000-7000-8000-00000000beef"


def _item(
    n: int,
    statement: str,
    kind: BeliefType = BeliefType.FACT,
    *,
    project: str = "shop",
    scope: Scope = Scope.PROJECT,
    stale: bool = False,
    flagged: str | None = None,
) -> RecallItem:
    return RecallItem(
        id=f"0193a8f2-0000-7000-8000-{n:012x}",
        statement=statement,
        type=kind,
        confidence_band="medium",
        project=project,
        origins=[project],
        scope=scope,
        anchor_state=AnchorState.UNANCHORED,
        applies_here=True,
        evidence=[],
        arm_ranks={},
        score=1.0,
        stale=stale,
        flagged=flagged,
    )


def _offer(*items: RecallItem, cosine: float = 0.7, lexical: bool = True) -> list[Offered]:
    scores = {"semantic": cosine, **({"lexical": 3.0} if lexical else {})}
    return [Offered(item, dict(scores)) for item in items]


def _words(text: str) -> int:
    return len(text.split())


DEAD_END = _item(
    1,
    'Changing app.py to `x = 1` did not fix "KeyError: token" from `pytest`; that approach '
    "was abandoned.",
    BeliefType.DEAD_END,
)
FIX = _item(
    2,
    '`pytest tests/a.py` failed with "KeyError: token"; it passed after editing app.py.',
    BeliefType.LESSON,
)
RULE = _item(3, "Always use uv, never pip", BeliefType.PREFERENCE)
BUILD = _item(4, "The project's tests run with `pytest`.")
DECISIONS = [_item(10 + n, f"Decided to keep option {n}", BeliefType.DECISION) for n in range(5)]


def test_the_brief_reads_in_sections_by_priority_as_facts() -> None:
    offered = _offer(BUILD, RULE, FIX, DEAD_END, *DECISIONS)
    shown = present.brief(offered, "shop", TRACE, 1000, _words)
    text = shown.text
    assert (
        text.index("Rules") < text.index("builds") < text.index("Dead ends") < text.index("Fixes")
    )
    assert 'The user said: "Always use uv, never pip"' in text  # quoted, not an order
    assert "[00000000000" not in text and "[" + DEAD_END.id[-8:] + "]" in text
    assert sum("decision:" in line for line in text.splitlines()) == present.RECENT_DECISIONS
    assert "option 4" in text and "option 1" not in text  # the newest decisions
    assert shown.tokens == _words(text)
    assert "(trace 0000beef)" in text.splitlines()[0]
    assert present.brief(offered, "shop", TRACE, 1000, _words).text == text  # same bytes


def test_the_brief_keeps_to_its_budget_highest_priority_first() -> None:
    offered = _offer(BUILD, RULE, FIX, DEAD_END)
    whole = present.brief(offered, "shop", TRACE, 1000, _words)
    tight = present.brief(offered, "shop", TRACE, whole.tokens - 5, _words)
    assert RULE in tight.items and BUILD in tight.items and FIX not in tight.items
    assert tight.tokens <= whole.tokens - 5


def test_an_empty_memory_gives_an_empty_brief() -> None:
    assert present.brief([], "shop", TRACE, 400, _words).text == ""
    assert present.brief(_offer(BUILD), "shop", TRACE, 3, _words).text == ""  # nothing fits


def test_flagged_excluded_and_other_projects_items_are_never_injected() -> None:
    flagged = _item(5, "[BLOCKED: injection]", BeliefType.DEAD_END, flagged="injection")
    elsewhere = _item(6, "Elsewhere `pytest` broke", BeliefType.DEAD_END, project="other")
    shared = _item(
        7, "Shared `pytest` lesson", BeliefType.LESSON, project="other", scope=Scope.PRINCIPAL
    )
    shown = present.brief(
        _offer(flagged, elsewhere, shared, DEAD_END),
        "shop",
        TRACE,
        1000,
        _words,
        exclude=[DEAD_END.id],
    )
    assert shown.items == [shared]


def test_a_stale_item_is_shown_apart_as_not_confirmed() -> None:
    stale = _item(8, "The project builds with `make`.", stale=True)
    text = present.brief(_offer(stale), "shop", TRACE, 1000, _words).text
    assert present.STALE_SECTION in text and "make" in text


def test_a_prompt_injects_only_what_clears_the_floor() -> None:
    close = _offer(DEAD_END, cosine=present.SEMANTIC_FLOOR)
    shared_words = _offer(FIX, cosine=present.LEXICAL_SEMANTIC_FLOOR)
    weak = _offer(BUILD, cosine=present.LEXICAL_SEMANTIC_FLOOR - 0.01)
    words_alone = _offer(RULE, cosine=present.SEMANTIC_FLOOR - 0.01, lexical=False)
    shown = present.prompt(
        [*close, *shared_words, *weak, *words_alone], "shop", TRACE, 1000, _words
    )
    assert shown.items == [DEAD_END, FIX]
    assert present.prompt(weak, "shop", TRACE, 1000, _words).text == ""  # no header, no filler


def test_a_second_mention_of_an_error_is_not_repeated() -> None:
    text = present.prompt(_offer(DEAD_END, FIX), "shop", TRACE, 1000, _words).text
    assert text.count('"KeyError: token"') == 1
    assert present.SAME_ERROR in text


def test_a_command_gets_its_dead_ends_and_the_fixes_of_its_errors() -> None:
    other = _item(
        9,
        '`npm test` failed with "TypeError: x is undefined"; it passed after y.',
        BeliefType.LESSON,
    )
    shown = present.command(_offer(FIX, other, DEAD_END), "pytest", "shop", TRACE, 1000, _words)
    assert shown.items == [
        DEAD_END,
        FIX,
    ]  # dead ends first; the narrower `pytest tests/a.py` counts
    assert present.command(_offer(other), "pytest", "shop", TRACE, 1000, _words).text == ""


def test_commands_match_only_as_the_same_program_and_subcommand() -> None:
    same = present._same_command
    assert same("python -m pytest", "python -m pytest tests/test_a.py")
    assert same("python -m pytest tests/test_a.py", "python -m pytest")
    assert not same("python -m pytest", "python -m pip install x")
    assert not same("npm test", "npm testing")


def test_a_text_counts_as_the_sum_of_its_lines() -> None:
    from graphmem.vectors.tokens import count_tokens

    shown = present.brief(_offer(BUILD, RULE, FIX, DEAD_END), "shop", TRACE, 2000, count_tokens)
    assert shown.tokens == count_tokens(shown.text)
    assert shown.tokens == sum(count_tokens(line) for line in shown.text.split("\n"))
