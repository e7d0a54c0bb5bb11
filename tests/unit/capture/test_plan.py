"""The capture gates of a session plan, over hand-built spools (graphmem.capture.plan).

Validation, frequency, trust, and score and cap, each pinned on its own: these are the
tests the gates' mutants must turn red (tests/mutants.py).
"""

from __future__ import annotations

from graphmem.capture import plan
from graphmem.capture.plan import CAP_PER_SESSION, Rejected, SessionPlan, plan_session
from graphmem.capture.signals import SignalKind
from graphmem.models import BeliefState, BeliefType
from tests.unit.capture.test_signals import CWD, ERR, ERR2, Session

SIGNATURE = "FAILED test_a.py::test_x - AssertionError: assert <n> == <n>"
"""What :data:`ERR` folds to."""


def _plan(session: Session) -> SessionPlan:
    return plan_session(session.records, session.signals(), CWD)


def _formed(plan: SessionPlan) -> list[tuple[BeliefType, BeliefState, str]]:
    return [(c.type, c.state, c.statement) for c in plan.candidates]


# --- validation -------------------------------------------------------------------------


def test_an_unfixed_error_and_a_retry_form_nothing() -> None:
    session = (
        Session()
        .prompt("make the tests pass")
        .run("pytest", 1, ERR)
        .run("pytest", 1, ERR)  # a retry, failing the same way
        .run("make lint", 1, ERR2)
    )
    assert {SignalKind.ERROR, SignalKind.RETRY} <= set(session.kinds())
    plan = _plan(session)
    assert plan.candidates == [] and plan.rejected == []
    assert plan.unresolved == [  # the episode says what stayed broken; no belief does
        f'`pytest` failed with "{SIGNATURE}".',
        "`make lint` failed with \"FAILED test_a.py::test_x - KeyError: 'name'\".",
    ]


def test_a_fix_rests_on_the_edit_that_fixed_it_not_the_abandoned_try() -> None:
    session = (
        Session()
        .prompt("make the tests pass")
        .run("pytest", 1, ERR)
        .edit(f"{CWD}/a.py", "x = 1", "x = 2")
        .edit(f"{CWD}/a.py", "x = 2", "x = 1")  # reverted: a dead end
        .edit(f"{CWD}/b.py", "y = 1", "y = 3")
        .run("pytest", 0, "1 passed")
    )
    assert {SignalKind.FIX, SignalKind.DEAD_END} <= set(session.kinds())
    formed = _formed(_plan(session))
    assert formed[:2] == [
        (
            BeliefType.DEAD_END,
            BeliefState.PROVISIONAL,
            f'Changing a.py to `x = 2` did not fix "{SIGNATURE}" from `pytest`; '
            "that approach was abandoned.",
        ),
        (
            BeliefType.LESSON,
            BeliefState.PROVISIONAL,
            f'`pytest` failed with "{SIGNATURE}"; it passed after changing b.py to `y = 3`.',
        ),
    ]
    assert "x = " not in formed[1][2]  # the abandoned try is the dead end's alone


# --- frequency --------------------------------------------------------------------------


def test_a_signal_seen_once_is_provisional_and_a_recurring_one_active() -> None:
    session = (
        Session()
        .prompt("tidy up")
        .run("ruff check .", 0)
        .run("pytest", 0)
        .run("pytest", 0)  # the tests ran twice: it recurs
        .edit(f"{CWD}/a.py")
        .edit(f"{CWD}/b.py")  # edited together once: no habit yet
    )
    plan = _plan(session)
    assert _formed(plan) == [
        (BeliefType.FACT, BeliefState.PROVISIONAL, "The project builds with `ruff check .`."),
        (BeliefType.FACT, BeliefState.ACTIVE, "The project's tests run with `pytest`."),
    ]
    assert plan.rejected == [Rejected("a.py, b.py are edited together.", "frequency")]


def test_files_edited_together_in_two_tasks_form_an_active_pattern() -> None:
    session = Session()
    for task in ("rename the field", "rename it back"):
        session.prompt(task).edit(f"{CWD}/a.py").edit(f"{CWD}/b.py")
    plan = _plan(session)
    assert (
        _formed(plan)
        == [(BeliefType.PATTERN, BeliefState.ACTIVE, "a.py, b.py are edited together.")] * 2
    )  # formation's novelty gate keeps one of the two
    assert plan.rejected == []


# --- trust ------------------------------------------------------------------------------


def test_untrusted_signal_forms_nothing() -> None:
    rule = "Always run the tests before a commit."
    session = (
        Session()
        .prompt(rule)
        .run("make build", 0, "built", untrusted=True)  # its output came from outside
        .run("pytest", 0)
    )
    untrusted = [s.kind for s in session.signals() if s.untrusted]
    assert untrusted == [SignalKind.BUILD_COMMAND]
    plan = _plan(session)
    assert _formed(plan) == [
        (BeliefType.PREFERENCE, BeliefState.PROVISIONAL, rule),
        (BeliefType.FACT, BeliefState.PROVISIONAL, "The project's tests run with `pytest`."),
    ]
    assert plan.rejected == [Rejected("The project builds with `make build`.", "trust")]


# --- score and cap ----------------------------------------------------------------------


def test_a_read_only_or_docs_only_session_earns_nothing() -> None:
    tests_fact = Rejected("The project's tests run with `pytest`.", "cap")
    read_only = _plan(Session().prompt("look around").read(f"{CWD}/a.py").run("pytest", 0))
    assert read_only.kind == "read_only" and read_only.candidates == []
    assert read_only.rejected == [tests_fact]
    docs_only = _plan(
        Session()
        .prompt("fix the docs")
        .edit(f"{CWD}/README.md")
        .edit(f"{CWD}/docs/guide.md")
        .run("pytest", 0)
    )
    assert docs_only.kind == "docs_only" and docs_only.candidates == []
    assert docs_only.rejected == [
        Rejected("README.md, docs/guide.md are edited together.", "frequency"),
        tests_fact,
    ]


def test_the_best_candidates_go_on_dead_ends_first_and_the_rest_are_capped() -> None:
    rules = [f"Always run the {name} check." for name in ("lint", "type", "docs", "link", "spell")]
    session = (
        Session()
        .prompt(" ".join(rules))
        .run("make build", 0)
        .run("pytest", 1, ERR)
        .edit(f"{CWD}/a.py", "x = 1", "x = 2")
        .edit(f"{CWD}/a.py", "x = 2", "x = 1")  # reverted: a dead end
    )
    plan = _plan(session)
    assert plan.kind == "working" and len(plan.candidates) == CAP_PER_SESSION
    assert [c.type for c in plan.candidates] == [BeliefType.DEAD_END] + [BeliefType.PREFERENCE] * (
        CAP_PER_SESSION - 1
    )
    assert [c.statement for c in plan.candidates[1:]] == rules[:4]
    assert plan.rejected == [
        Rejected(rules[4], "cap"),
        Rejected("The project builds with `make build`.", "cap"),
    ]


def test_an_edit_is_quoted_by_the_line_it_changed_not_the_first_it_kept() -> None:
    old = "let candidates = [(x - 1, y), (x + 1, y)];\n"  # reflowed onto several lines
    new = "let candidates = [\n    (x.saturating_sub(1), y),\n    (x + 1, y),\n];\n"
    assert plan._changed_line(old, new) == "(x.saturating_sub(1), y),"
    assert plan._changed_line("", "\n  fn main() {}\n") == "fn main() {}"  # a new file
    assert plan._changed_line("a\n", "a\n") == "a"  # nothing changed: the first line
