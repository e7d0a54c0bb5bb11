"""Mutants of the capture and formation gates, and the pytest plugin that applies one.

Each mutant disables one gate alone, by monkeypatching the one function that is the gate
so that it lets everything through, and names the test that must then fail (its
killer). ``tests/unit/formation/test_gate_mutants.py`` runs every killer with and
without its mutant. By hand::

    GRAPHMEM_MUTANT=trust python -m pytest -p tests.mutants \\
        tests/unit/capture/test_plan.py::test_untrusted_signal_forms_nothing

Without ``GRAPHMEM_MUTANT`` the plugin does nothing. With it, it patches the gate before
any test module is imported (so a test that imports the gate's function gets the
mutant), undoes it at the end, and says which mutant ran in the terminal summary. A
mutant that survives its killer is a defect of the gate or of its tests, never a reason
to drop the mutant. Nothing of this is in the ``graphmem`` package.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from graphmem.capture import plan
from graphmem.capture.signals import Signal, SignalKind, normalise_command
from graphmem.formation import gates
from graphmem.formation.extract import Candidate
from graphmem.models import DEFAULT_SENSITIVITY, BeliefState, BeliefType, EvidenceRole
from graphmem.store import beliefs

ENV = "GRAPHMEM_MUTANT"
"""The environment variable naming the mutant to apply."""
SUMMARY = "graphmem mutant applied:"
"""How the terminal summary starts the line that names the mutant that ran."""
KILLED = "graphmem mutant killed by:"
"""How it starts each line naming a test that failed under it, and the exception."""


@dataclass(frozen=True)
class Mutant:
    """One gate disabled alone, and the test that must fail because of it.

    Attributes:
        name: What ``GRAPHMEM_MUTANT`` is set to.
        gate: The gate, as docs/capture.md and docs/formation.md name it.
        disables: How the mutant disables it (the function patched, and to what).
        killer: The node id of the test that must fail, from the repository's root.
        apply: Patches the gate.
    """

    name: str
    gate: str
    disables: str
    killer: str
    apply: Callable[[pytest.MonkeyPatch], None]


# --- capture (graphmem/capture/plan.py) --------------------------------------------------


def _errors_form(patch: pytest.MonkeyPatch) -> None:
    """Validation off: an unfixed error or a retry forms a belief of its own."""
    original = plan._candidate

    def candidate(signal: Signal, signals: Sequence[Signal], evidence: Any) -> Candidate | None:
        made = original(signal, signals, evidence)
        if made is not None or signal.kind not in (SignalKind.ERROR, SignalKind.RETRY):
            return made
        command = normalise_command(signal.command or "")
        state = BeliefState.ACTIVE if plan._recurs(signal, signals) else BeliefState.PROVISIONAL
        statement = f'`{command}` failed with "{signal.signature}".'
        return Candidate(statement, BeliefType.FACT, state, EvidenceRole.OBSERVATION)

    patch.setattr(plan, "_candidate", candidate)


def _nothing_abandoned(patch: pytest.MonkeyPatch) -> None:
    """Validation off for evidence: a fix's statement may rest on a dead end's edits."""
    patch.setattr(plan, "_abandoned", lambda signal, signals: set())


def _everything_recurs(patch: pytest.MonkeyPatch) -> None:
    """Frequency off: every signal counts as seen again (active; co-edits never held)."""
    patch.setattr(plan, "_recurs", lambda signal, signals: True)


def _everything_trusted(patch: pytest.MonkeyPatch) -> None:
    """Trust off in capture: a signal with untrusted evidence forms like any other."""
    patch.setattr(plan, "_trusted", lambda signal: True)


def _nothing_capped(patch: pytest.MonkeyPatch) -> None:
    """Score and cap off in capture: every candidate goes on, unranked, whatever the kind."""
    patch.setattr(plan, "_score_and_cap", lambda kind, scored: ([c for _, c in scored], []))


# --- formation (graphmem/formation/gates.py) ---------------------------------------------


def _untrusted_episodes_form(patch: pytest.MonkeyPatch) -> None:
    """Trust off in formation: an untrusted episode forms like a trusted one."""
    patch.setattr(gates, "trust_gate", lambda episode, candidates, reject: True)


def _nothing_forgotten(patch: pytest.MonkeyPatch) -> None:
    """Tombstones off: forgotten content forms again."""
    patch.setattr(gates, "tombstone_gate", lambda candidates, forgotten, reject: list(candidates))


def _no_corrections(patch: pytest.MonkeyPatch) -> None:
    """Rejections off: stored corrections are not replayed over the candidates."""
    patch.setattr(
        gates,
        "replay_corrections",
        lambda candidates, corrections, embed, threshold, reject: list(candidates),
    )


def _everything_novel(patch: pytest.MonkeyPatch) -> None:
    """Novelty off: a repeat of a live belief, or of the episode's own, is a new belief."""
    patch.setattr(
        gates,
        "novelty_gate",
        lambda survivors, neighbours, threshold, reinforced, reject: list(survivors),
    )


def _no_episode_cap(patch: pytest.MonkeyPatch) -> None:
    """The cap off in formation: every survivor forms, whatever the episode kind's cap."""
    patch.setattr(gates, "cap_gate", lambda survivors, cap, reject: list(survivors))


def _no_consideration_bound(patch: pytest.MonkeyPatch) -> None:
    """The consideration bound off: every candidate is embedded and considered."""
    patch.setattr(gates, "consideration_bound", lambda candidates, bound, reject: list(candidates))


def _default_sensitivity(patch: pytest.MonkeyPatch) -> None:
    """Sensitivity off: a formed belief gets the default level, not its episode's."""
    original = gates.new_belief

    def new_belief(candidate: Candidate, episode: Any, policy: Any) -> Any:
        belief, extra = original(candidate, episode, policy)
        return belief.model_copy(update={"sensitivity": DEFAULT_SENSITIVITY}), extra

    patch.setattr(gates, "new_belief", new_belief)


def _secrets_unraised(patch: pytest.MonkeyPatch) -> None:
    """Sensitivity off for secrets: a belief whose text holds one keeps its declared level."""
    patch.setattr(beliefs, "effective", lambda declared, texts: declared)


_PLAN = "tests/unit/capture/test_plan.py::"
_GATES = "tests/unit/formation/test_gates.py::"

MUTANTS: dict[str, Mutant] = {
    mutant.name: mutant
    for mutant in (
        Mutant(
            "validation",
            "validation",
            "capture.plan._candidate also forms an unfixed error or a retry",
            _PLAN + "test_an_unfixed_error_and_a_retry_form_nothing",
            _errors_form,
        ),
        Mutant(
            "validation.abandoned",
            "validation",
            "capture.plan._abandoned returns no offsets (a fix may cite a dead end's edits)",
            _PLAN + "test_a_fix_rests_on_the_edit_that_fixed_it_not_the_abandoned_try",
            _nothing_abandoned,
        ),
        Mutant(
            "frequency",
            "frequency",
            "capture.plan._recurs returns True",
            _PLAN + "test_a_signal_seen_once_is_provisional_and_a_recurring_one_active",
            _everything_recurs,
        ),
        Mutant(
            "trust",
            "trust",
            "capture.plan._trusted returns True",
            _PLAN + "test_untrusted_signal_forms_nothing",
            _everything_trusted,
        ),
        Mutant(
            "trust.formation",
            "trust",
            "formation.gates.trust_gate returns True",
            _GATES + "test_trust_gate_holds_back_untrusted_episodes",
            _untrusted_episodes_form,
        ),
        Mutant(
            "score-and-cap",
            "score and cap",
            "capture.plan._score_and_cap keeps every candidate in the session's order",
            _PLAN + "test_the_best_candidates_go_on_dead_ends_first_and_the_rest_are_capped",
            _nothing_capped,
        ),
        Mutant(
            "score-and-cap.session-kind",
            "score and cap",
            "capture.plan._score_and_cap keeps every candidate in the session's order",
            _PLAN + "test_a_read_only_or_docs_only_session_earns_nothing",
            _nothing_capped,
        ),
        Mutant(
            "score-and-cap.formation",
            "score and cap",
            "formation.gates.cap_gate keeps every survivor",
            _GATES + "test_cap_gate_limits_new_beliefs_per_episode_kind",
            _no_episode_cap,
        ),
        Mutant(
            "score-and-cap.bound",
            "score and cap",
            "formation.gates.consideration_bound keeps every candidate",
            "tests/unit/formation/test_consideration_bound.py::"
            "test_large_episodes_take_turns_over_parts_in_order",
            _no_consideration_bound,
        ),
        Mutant(
            "novelty",
            "novelty",
            "formation.gates.novelty_gate keeps every survivor",
            _GATES + "test_novelty_gate_reinforces_instead_of_copying",
            _everything_novel,
        ),
        Mutant(
            "tombstones",
            "tombstones and rejections",
            "formation.gates.tombstone_gate keeps every candidate",
            _GATES + "test_rejection_gate_applies_tombstones_and_corrections",
            _nothing_forgotten,
        ),
        Mutant(
            "rejections",
            "tombstones and rejections",
            "formation.gates.replay_corrections keeps every candidate as it is",
            _GATES + "test_rejection_gate_applies_tombstones_and_corrections",
            _no_corrections,
        ),
        Mutant(
            "sensitivity",
            "sensitivity",
            "formation.gates.new_belief's belief gets the default sensitivity",
            _GATES + "test_a_formed_belief_is_as_sensitive_as_its_episode",
            _default_sensitivity,
        ),
        Mutant(
            "sensitivity.secrets",
            "sensitivity",
            "store.beliefs.effective returns the declared level (formed beliefs are written "
            "through it)",
            "tests/unit/store/test_belief_rows.py::"
            "test_a_belief_whose_text_holds_a_secret_is_stored_secret",
            _secrets_unraised,
        ),
    )
}
"""Every mutant, by name: each gate at least once, in the order the gates run."""


_applied = pytest.StashKey[tuple[Mutant, pytest.MonkeyPatch]]()
_killers = pytest.StashKey[list[tuple[str, str]]]()


def pytest_configure(config: pytest.Config) -> None:
    """Applies the mutant ``GRAPHMEM_MUTANT`` names, if it names one."""
    name = os.environ.get(ENV)
    if not name:
        return
    mutant = MUTANTS.get(name)
    if mutant is None:
        raise pytest.UsageError(f"{ENV}={name!r} names no mutant: use one of {sorted(MUTANTS)}")
    patch = pytest.MonkeyPatch()
    mutant.apply(patch)
    config.stash[_applied] = (mutant, patch)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Undoes the mutant."""
    applied = config.stash.get(_applied, None)
    if applied is not None:
        applied[1].undo()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Notes each test that failed under the mutant, and the exception it failed with."""
    outcome = yield
    report = outcome.get_result()
    if _applied in item.config.stash and report.failed and call.excinfo is not None:
        item.config.stash.setdefault(_killers, []).append((item.nodeid, call.excinfo.typename))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Says which mutant ran and which tests killed it (with the exception raised).

    A kill counts only as an ``AssertionError``: a mutant that crashes a test proves
    nothing about the gate.
    """
    applied = config.stash.get(_applied, None)
    if applied is None:
        return
    mutant = applied[0]
    terminalreporter.write_line(f"{SUMMARY} {mutant.name} (gate {mutant.gate}: {mutant.disables})")
    for nodeid, exception in config.stash.get(_killers, []):
        terminalreporter.write_line(f"{KILLED} {nodeid} ({exception})")
