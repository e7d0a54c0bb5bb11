"""What a session's spool becomes: its episode, task segments and candidate beliefs (pure).

The plan is made by rules from the signals (:mod:`graphmem.capture.signals`), and every
statement is a template filled from captured evidence (a command, an error signature,
paths, the user's own sentence), so every word of a formed belief traces back to an
event. The gates that run here, before formation's own (docs/capture.md):

1. **validation**: abandoned work forms only a ``dead_end``; an error never fixed, a
   retry, and routine success form nothing of their own;
2. **frequency**: a signal seen once in the session forms at most a provisional
   belief; one that recurs forms an active one (across sessions, formation's novelty
   gate reinforces the existing belief, and a second supporting episode makes it
   active);
3. **trust**: a signal with untrusted evidence (web content, other MCP servers, files
   outside the work tree) never forms a belief; it is listed as rejected by ``trust``;
4. **score and cap**: a session that edited nothing and failed nothing (read-only), or
   edited only documentation, earns nothing; otherwise the best
   :data:`CAP_PER_SESSION` candidates by score go on, the rest are rejected by ``cap``.

Formation then applies tombstones, novelty, its own cap and resolve, in one
transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from graphmem.capture.event import EDIT_TOOLS, EventKind, SpoolRecord
from graphmem.capture.signals import Signal, SignalKind, normalise_command, replaced_terms
from graphmem.capture.symbols import EditedSymbol
from graphmem.formation.extract import Candidate
from graphmem.models import Authority, BeliefState, BeliefType, EvidenceRole, Outcome

CAP_PER_SESSION = 5
"""The most new beliefs one session may form."""

MAX_ITEM = 600
"""The most characters a template takes from one piece of evidence."""

MAX_SNIPPET = 100
"""The most characters of an edit's new text a statement quotes."""

MAX_CO_EDITED = 4
"""Files edited together form a pattern only when they are this few or fewer (more is a
sweeping change, not a habit) and the group recurs."""

INSTALLS = (" install ", " add ", " i ")
"""What makes a shell command among a fix's evidence a step of the fix (it installs)."""

DOCS_SUFFIXES = frozenset({".md", ".rst", ".txt", ".adoc"})
"""Files whose edits alone make a docs-only session."""

_SCORES = {
    SignalKind.DEAD_END: 5,
    SignalKind.FIX: 4,
    SignalKind.RULE: 4,
    SignalKind.TEST_COMMAND: 2,
    SignalKind.BUILD_COMMAND: 2,
    SignalKind.CO_EDITED: 1,
}
"""How much each kind of signal is worth keeping; dead ends get emphasis."""


_FROM_EDITS = {
    SignalKind.DEAD_END: (BeliefType.DEAD_END, EvidenceRole.FAILED_ATTEMPT),
    SignalKind.FIX: (BeliefType.LESSON, EvidenceRole.OBSERVATION),
}
"""Signals that rest on edits: the belief each forms, anchored to the symbol changed."""


@dataclass(frozen=True)
class Rejected:
    """A candidate a capture gate held back: its statement and the gate."""

    statement: str
    gate: str


@dataclass
class SessionPlan:
    """What consolidation writes for one session.

    Attributes:
        title: The session episode's title.
        text: The prompts, in order (the episode's text).
        outcome: How the session's last build or test ended.
        observations: Fixes and how the project builds and tests.
        decisions: Rules the user stated.
        failed_attempts: Dead ends.
        unresolved: Errors never fixed.
        paths: Files edited, relative to the project's root.
        segments: One (title, text, paths) per task segment (split at prompts).
        candidates: What goes on to formation, best first.
        rejected: What the capture gates held back.
        kind: ``read_only``, ``docs_only`` or ``working``.
    """

    title: str
    text: str
    outcome: Outcome
    observations: list[str] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    failed_attempts: list[str] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    segments: list[tuple[str, str, list[str]]] = field(default_factory=list)
    candidates: list[Candidate] = field(default_factory=list)
    rejected: list[Rejected] = field(default_factory=list)
    kind: str = "working"


def plan_session(
    records: Sequence[SpoolRecord],
    signals: Sequence[Signal],
    root: str,
    symbols: Mapping[int, Sequence[EditedSymbol]] | None = None,
    since: int | None = None,
) -> SessionPlan:
    """The session's episode, segments and candidates, by the rules above.

    A fix or dead end whose edits changed a known symbol names it and anchors to the
    first one changed. After a checkpoint (``since``), the plan covers what came after
    it: the records past ``since`` and the signals with evidence past it, read against
    the whole session (a fix after the checkpoint of an error before it is a fix).

    Args:
        records: The session's whole spool, in order.
        signals: What :func:`graphmem.capture.signals.derive_signals` found in it.
        root: The project's root directory (edited paths are made relative to it).
        symbols: The symbols each edit changed, by its record's offset
            (:func:`graphmem.capture.symbols.edited_symbols`).
        since: The offset an earlier consolidation reached (None: plan it all).
    """
    new = [r for r in records if since is None or r.n > since]
    fresh = [s for s in signals if since is None or s.evidence[-1] > since]
    prompts = [r.event.prompt for r in new if r.event.kind is EventKind.PROMPT and r.event.prompt]
    plan = SessionPlan(
        title=_title(prompts, new, continued=since is not None),
        text="\n\n".join(_cut(prompt) for prompt in prompts)[:100_000] or "(no prompt)",
        outcome=_outcome(new),
    )
    edited = sorted({p for s in fresh for p in s.paths if _relative(p, root) is not None})
    plan.paths = [path for path in (_relative(p, root) for p in edited) if path is not None][:200]
    plan.kind = _session_kind(new, fresh, plan.paths)
    plan.segments = _segments(new, root)
    evidence = _Evidence({record.n: record for record in records}, root, signals, symbols or {})
    scored: list[tuple[SignalKind, Candidate]] = []
    for signal in fresh:
        made = _candidate(signal, signals, evidence)
        _episode_item(plan, signal, evidence)
        if made is None:
            continue
        if signal.kind is SignalKind.CO_EDITED and made.state is not BeliefState.ACTIVE:
            plan.rejected.append(Rejected(made.statement, "frequency"))
            continue
        if not _trusted(signal):
            plan.rejected.append(Rejected(made.statement, "trust"))
            continue
        scored.append((signal.kind, made))
    plan.candidates, capped = _score_and_cap(plan.kind, scored)
    plan.rejected.extend(Rejected(candidate.statement, "cap") for candidate in capped)
    return plan


def _trusted(signal: Signal) -> bool:
    """The trust gate: whether a signal may form a belief (none of its evidence untrusted)."""
    return not signal.untrusted


def _score_and_cap(
    kind: str, scored: Sequence[tuple[SignalKind, Candidate]]
) -> tuple[list[Candidate], list[Candidate]]:
    """The score and cap gate: (what goes on to formation, best first; what it holds back).

    A session that is not ``working`` (read-only, docs-only) earns nothing; otherwise the
    best :data:`CAP_PER_SESSION` by their signal's score go on, ties in the session's
    order.

    Args:
        kind: The session's kind (:func:`_session_kind`).
        scored: Each candidate with the kind of signal it came from, in the session's
            order.
    """
    ranked = sorted(enumerate(scored), key=lambda entry: (-_SCORES.get(entry[1][0], 0), entry[0]))
    candidates = [candidate for _, (_, candidate) in ranked]
    if kind != "working":
        return [], candidates
    return candidates[:CAP_PER_SESSION], candidates[CAP_PER_SESSION:]


@dataclass(frozen=True)
class _Evidence:
    """The session's records by offset, and the project's root: what templates read."""

    records: dict[int, SpoolRecord]
    root: str
    signals: Sequence[Signal]
    symbols: Mapping[int, Sequence[EditedSymbol]]

    def edits(self, signal: Signal) -> list[tuple[str, str]]:
        """(where, first changed line of the new text) of each edit among the signal's evidence.

        Where is the path, or the symbol it changed and the path. A fix leaves out the
        edits of a dead end (a try and its revert): they are not what fixed it.
        """
        abandoned = _abandoned(signal, self.signals)
        found: list[tuple[str, str]] = []
        for offset in signal.evidence:
            if offset in abandoned:
                continue
            record = self.records.get(offset)
            if record is None or record.event.tool not in EDIT_TOOLS:
                continue
            path = next((p for p in map(self.relative, record.event.paths) if p), None)
            new = record.event.tool_input.get("new_string") or record.event.tool_input.get(
                "content"
            )
            line = _changed_line(
                str(record.event.tool_input.get("old_string") or ""), str(new or "")
            )
            changed = self.symbols.get(offset, ())
            if path is not None:
                where = f"`{changed[0].qualname}` in {path}" if changed else path
                found.append((where, line[:MAX_SNIPPET]))
        return found

    def replaced(self, signal: Signal) -> tuple[str, ...]:
        """What the prompts a rule was stated in say it replaces (``replaced_terms``)."""
        prompts = [self.records[n].event.prompt or "" for n in signal.evidence if n in self.records]
        return replaced_terms("\n".join(prompts))

    def anchor(self, signal: Signal) -> tuple[str, str] | None:
        """(key, hash) of the first symbol the signal's edits changed, if any."""
        for offset in signal.evidence:
            changed = self.symbols.get(offset, ())
            if changed:
                return changed[0].key, changed[0].hash
        return None

    def installs(self, signal: Signal) -> list[str]:
        """Installing shell commands that passed within the signal's evidence, normalised.

        A fix that needed a dependency names the command that installed it.
        """
        commands: list[str] = []
        first, last = signal.evidence[0], signal.evidence[-1]
        for offset in sorted(self.records):
            record = self.records[offset]
            if not first < offset < last or not record.event.command or record.event.failed:
                continue
            if any(k in f" {record.event.command} " for k in INSTALLS):
                normal = _cut(normalise_command(record.event.command))
                if normal not in commands:
                    commands.append(normal)
        return commands

    def relative(self, path: str) -> str | None:
        return _relative(path, self.root)


def _changed_line(old: str, new: str) -> str:
    """The first non-blank line of ``new`` whose text ``old`` does not hold (else its first).

    An edit's new text often opens with what it kept (``let candidates = [``, a line of
    the old text or a piece of one reflowed); the line it changed is what tells one try
    from another.
    """
    lines = [line.strip() for line in new.splitlines() if line.strip()]
    return next((line for line in lines if line not in old), lines[0] if lines else "")


def _abandoned(signal: Signal, signals: Sequence[Signal]) -> set[int]:
    """The validation gate on evidence: the offsets a signal's statement must not rest on.

    Abandoned work forms only a ``dead_end``: a fix leaves out the edits of every dead end
    (a try and its revert), which are not what fixed it.
    """
    if signal.kind is not SignalKind.FIX:
        return set()
    return {n for s in signals if s.kind is SignalKind.DEAD_END for n in s.evidence}


def _candidate(signal: Signal, signals: Sequence[Signal], evidence: _Evidence) -> Candidate | None:
    """The belief a signal may form (validation and frequency gates), else None."""
    recurs = _recurs(signal, signals)
    state = BeliefState.ACTIVE if recurs else BeliefState.PROVISIONAL
    statement = _statement(signal, evidence)
    if statement is None:
        return None
    if signal.kind in _FROM_EDITS:
        belief_type, role = _FROM_EDITS[signal.kind]
        return Candidate(statement, belief_type, state, role, anchor=evidence.anchor(signal))
    if signal.kind is SignalKind.RULE:
        return Candidate(
            statement,
            BeliefType.PREFERENCE,
            state,
            EvidenceRole.DECISION,
            authority=Authority.USER,
            replaces=evidence.replaced(signal),
        )
    if signal.kind in (SignalKind.BUILD_COMMAND, SignalKind.TEST_COMMAND):
        return Candidate(statement, BeliefType.FACT, state, EvidenceRole.OBSERVATION)
    if signal.kind is SignalKind.CO_EDITED and len(signal.paths) <= MAX_CO_EDITED:
        return Candidate(statement, BeliefType.PATTERN, state, EvidenceRole.OBSERVATION)
    return None


def _recurs(signal: Signal, signals: Sequence[Signal]) -> bool:
    """Whether the signal was seen more than once in the session."""
    if signal.kind in (SignalKind.BUILD_COMMAND, SignalKind.TEST_COMMAND):
        return len(signal.evidence) >= 2
    twins = [
        other
        for other in signals
        if other.kind is signal.kind
        and (other.signature, other.text, other.paths)
        == (signal.signature, signal.text, signal.paths)
    ]
    return len(twins) >= 2


def _statement(signal: Signal, evidence: _Evidence) -> str | None:
    """The template a signal fills, from its evidence only."""
    paths = ", ".join(p for p in map(evidence.relative, signal.paths) if p) or "files"
    command = _cut(normalise_command(signal.command or ""))
    signature = _cut(signal.signature or "")
    if signal.kind is SignalKind.DEAD_END and signature:
        edits = evidence.edits(signal)
        tried = (
            f"Changing {edits[0][0]} to `{edits[0][1]}`"
            if edits and edits[0][1]
            else f"Editing {paths}"
        )
        source = f" from `{command}`" if command else ""
        return f'{tried} did not fix "{signature}"{source}; that approach was abandoned.'
    if signal.kind is SignalKind.FIX and signature and command:
        steps = [f"running `{c}`" for c in evidence.installs(signal)]
        steps += [
            f"changing {path} to `{line}`" if line else f"editing {path}"
            for path, line in evidence.edits(signal)[:2]
        ]
        how = " and ".join(steps) or f"editing {paths}"
        return f'`{command}` failed with "{signature}"; it passed after {how}.'
    if signal.kind is SignalKind.RULE and signal.text:
        return _cut(signal.text)
    if signal.kind is SignalKind.TEST_COMMAND and command:
        return f"The project's tests run with `{command}`."
    if signal.kind is SignalKind.BUILD_COMMAND and command:
        return f"The project builds with `{command}`."
    if signal.kind is SignalKind.CO_EDITED and len(signal.paths) >= 2:
        return f"{paths} are edited together."
    return None


FRAME_WORDS = frozenset(
    """changing to editing did not fix from that approach was abandoned failed with it
    passed after running and the project s tests run builds files are edited together
    """.split()  # noqa: SIM905 - a word list reads better as text
)
"""The words :func:`_statement`'s templates put around the evidence (lowercased ``\\w+``).
Every other word of a formed statement comes from the session's events: ``graphmem
bench formation --replay`` checks it (no-fabrication)."""


def _episode_item(plan: SessionPlan, signal: Signal, evidence: _Evidence) -> None:
    """Puts what the signal says into the session episode's parts."""
    statement = _statement(signal, evidence)
    if signal.kind is SignalKind.ERROR and signal.signature:
        command = _cut(normalise_command(signal.command or ""))
        item = f'`{command}` failed with "{_cut(signal.signature)}".'
        if item not in plan.unresolved and not _resolved(signal, evidence.signals):
            plan.unresolved.append(item)
        return
    if statement is None:
        return
    if signal.kind is SignalKind.DEAD_END:
        plan.failed_attempts.append(statement)
    elif signal.kind is SignalKind.RULE:
        plan.decisions.append(statement)
    elif signal.kind in (SignalKind.FIX, SignalKind.BUILD_COMMAND, SignalKind.TEST_COMMAND):
        plan.observations.append(statement)


def _resolved(error: Signal, signals: Sequence[Signal]) -> bool:
    """Whether a later fix or a later passing run of the same command followed the error."""
    last = error.evidence[-1]
    command = normalise_command(error.command or "")
    for other in signals:
        if other.kind is SignalKind.FIX and other.signature == error.signature:
            return True
        passes = other.kind in (SignalKind.TEST_COMMAND, SignalKind.BUILD_COMMAND, SignalKind.FIX)
        same = normalise_command(other.text or other.command or "") == command
        if passes and same and other.evidence[-1] > last:
            return True
    return False


def _session_kind(
    records: Sequence[SpoolRecord], signals: Sequence[Signal], paths: list[str]
) -> str:
    """``read_only`` (nothing edited, nothing failed), ``docs_only``, or ``working``."""
    failed = any(r.event.failed for r in records)
    edited = paths or [p for s in signals if s.kind is SignalKind.FIX for p in s.paths]
    if not edited and not failed and not any(s.kind is SignalKind.RULE for s in signals):
        return "read_only"
    if (
        edited
        and all(PurePosixPath(p).suffix.lower() in DOCS_SUFFIXES for p in edited)
        and not failed
    ):
        return "docs_only"
    return "working"


def _segments(records: Sequence[SpoolRecord], root: str) -> list[tuple[str, str, list[str]]]:
    """One (title, text, paths) per stretch of the session that starts at a prompt."""
    segments: list[tuple[str, str, list[str]]] = []
    prompt: str | None = None
    commands: list[str] = []
    paths: set[str] = set()
    for record in [*records, None]:
        if record is None or (record.event.kind is EventKind.PROMPT and record.event.prompt):
            if prompt is not None:
                text = "\n".join([_cut(prompt), *(f"$ {c}" for c in commands)])[:100_000]
                segments.append((f"Task: {_one_line(prompt)}", text, sorted(paths)[:200]))
            if record is not None:
                prompt, commands, paths = record.event.prompt, [], set()
            continue
        event = record.event
        if event.kind is EventKind.POST_TOOL and event.command:
            commands.append(_cut(event.command))
        if event.kind is EventKind.POST_TOOL and event.tool in (
            "Edit",
            "Write",
            "MultiEdit",
            "NotebookEdit",
        ):
            paths.update(p for p in (_relative(path, root) for path in event.paths) if p)
    return segments


def _outcome(records: Sequence[SpoolRecord]) -> Outcome:
    """How the last shell command of the session ended (none: no shell command)."""
    shells = [r.event for r in records if r.event.kind is EventKind.POST_TOOL and r.event.command]
    if not shells:
        return Outcome.NONE
    return Outcome.FAILED if shells[-1].failed else Outcome.SUCCEEDED


def _title(prompts: list[str], records: Sequence[SpoolRecord], *, continued: bool) -> str:
    project = records[0].project if records else "a project"
    first = _one_line(prompts[0]) if prompts else "no prompt"
    return f"Session in {project}{' (continued)' if continued else ''}: {first}"[:500]


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 120 else line[:117] + "..."


def _cut(text: str) -> str:
    return text if len(text) <= MAX_ITEM else text[: MAX_ITEM - 3] + "..."


def _relative(path: str, root: str) -> str | None:
    """``path`` relative to the project's root, or None when it is outside it."""
    pure = PurePosixPath(path)
    if not pure.is_absolute():
        parts = pure.parts
        return None if ".." in parts or not parts else str(pure)
    try:
        relative = pure.relative_to(root)
    except ValueError:
        return None
    return str(relative) if relative.parts else None
