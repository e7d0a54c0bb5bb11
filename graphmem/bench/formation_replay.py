"""``graphmem bench formation --replay DIR``: recorded sessions in, formation measured.

Each ``.jsonl`` file of DIR is one session: one hook payload per line, as the host sent
it. The files are replayed in name order into a fresh principal through what capture
itself runs: :func:`graphmem.capture.handler.capture` for every payload, the
:class:`~graphmem.inject.hook.Injector` on every event that takes context (what it
answers is what the host would have read), and
:meth:`~graphmem.GraphMem.consolidate_session` at each session boundary (a session
without an end is consolidated after its last event, as the idle sweep would).

Beside it, in the same run, the raw-capture baseline: every captured event stored as
its own memory, no gates, and the five best matches of each prompt or command injected,
the way raw-capture memory layers do. Both are scored against ``labels.json`` in DIR
(keyed by file name; every key optional, see docs/benchmarks.md):

- ``should_remember``: phrases some memory formed from this session or earlier holds;
- ``expect_injected``: phrases this session's injections hold;
- ``expect_dead_end``: (a repeated broken run) phrases of the earlier dead end this
  session's injections hold;
- ``replaces``: phrases of a rule this session changes, which no live memory may still
  state without a ``CONFLICTS_WITH``;
- ``expect_nothing_for``: prompts of this session that get no injection;
- ``hostile``: the session's tool output is hostile;
- ``true_beliefs``: phrases that mark a memory formed in this session as true and useful.

A phrase matches case-insensitively as whole words (``npm install`` is not in ``pnpm
install``). Duplicates are pairs of live memories of one type that the novelty gate's
own test calls the same (cosine at least ``threshold`` and no minimal-pair difference);
its precision and recall on the labelled pairs in ``pairs.json`` (DIR, if there) are
printed beside the figures.
"""

from __future__ import annotations

import json
import re
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.bench.scratch import scratch_memory
from graphmem.capture import spool
from graphmem.capture.event import EventKind, HookEvent, PayloadError, SpoolRecord
from graphmem.capture.handler import Captured, capture
from graphmem.capture.hosts import HostAdapter
from graphmem.capture.hosts import adapter as host_adapter
from graphmem.capture.plan import FRAME_WORDS
from graphmem.capture.signals import FOLD_MARKS
from graphmem.client import GraphMem
from graphmem.errors import GraphMemError, InvalidInput, NotFound
from graphmem.formation.novelty import is_duplicate
from graphmem.inject.hook import Injector
from graphmem.models import MAX_BATCH_ROWS, Belief, BeliefType
from graphmem.settings import make_private_dir, resolve_injection
from graphmem.vectors.minilm import default_embedder
from graphmem.vectors.protocol import Embedder
from graphmem.vectors.tokens import count_tokens

LABEL_KEYS = frozenset(
    {
        "should_remember",
        "expect_injected",
        "expect_dead_end",
        "replaces",
        "expect_nothing_for",
        "hostile",
        "true_beliefs",
    }
)
"""What an entry of ``labels.json`` may hold."""
DUPLICATE_THRESHOLD = 0.75
"""The cosine at and above which two live memories of one type may be the same. Chosen on
the 44 labelled pairs of ``bench/formation/sessions/pairs.json``: of 0.75, 0.80, 0.85 and
0.90 it has both the best precision (0.889) and recall (0.762); the detector's misses
above it are minimal pairs at cosines of 0.97 (``pnpm``/``npm`` swapped). Lower than the
novelty gate's 0.85, so the benchmark counts more duplicates than the gate merges."""
THRESHOLDS_SHOWN = (0.75, 0.8, 0.85, 0.9)
"""The thresholds the pair detector is scored at, so the choice can be seen."""
RULE_TYPES = frozenset({BeliefType.FACT, BeliefType.PREFERENCE, BeliefType.DECISION})
"""Beliefs that state how things are, which a changed rule contradicts. A dead end or a
fix that names the old command records what happened then, and stays true."""
BASELINE_K = 5
"""How many raw memories the baseline injects per prompt or command."""
_CONTEXT_KINDS = frozenset({EventKind.SESSION_START, EventKind.PROMPT, EventKind.PRE_TOOL})
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class Labels:
    """What one session should do to memory (see the module docstring)."""

    should_remember: tuple[str, ...] = ()
    expect_injected: tuple[str, ...] = ()
    expect_dead_end: tuple[str, ...] = ()
    replaces: tuple[str, ...] = ()
    expect_nothing_for: tuple[str, ...] = ()
    hostile: bool = False
    true_beliefs: tuple[str, ...] = ()


@dataclass(frozen=True)
class RecordedSession:
    """One session file: its name, payloads (unreadable lines dropped) and labels."""

    name: str
    payloads: list[dict[str, Any]]
    labels: Labels
    unreadable: int = 0


def _phrases(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise InvalidInput(
            f"{where}: expected a list of non-empty strings", field=where, rule="phrases"
        )
    return tuple(value)


def _labels(entry: object, name: str) -> Labels:
    if not isinstance(entry, dict):
        raise InvalidInput(f"labels.json {name}: expected an object", field=name, rule="object")
    unknown = sorted(set(entry) - LABEL_KEYS)
    if unknown:
        raise InvalidInput(
            f"labels.json {name}: unknown key {unknown[0]!r} "
            f"(known: {', '.join(sorted(LABEL_KEYS))})",
            field=f"{name}.{unknown[0]}",
            rule="known_key",
        )
    hostile = entry.get("hostile", False)
    if not isinstance(hostile, bool):
        raise InvalidInput(
            f"labels.json {name}.hostile: expected true or false",
            field=f"{name}.hostile",
            rule="boolean",
        )
    lists = {
        key: _phrases(entry[key], f"{name}.{key}")
        for key in LABEL_KEYS - {"hostile"}
        if key in entry
    }
    return Labels(hostile=hostile, **lists)


def load_corpus(directory: Path) -> list[RecordedSession]:
    """The sessions of ``directory`` in file-name order, with their labels.

    Raises:
        InvalidInput: The directory holds no session, or ``labels.json`` is not valid
            (the field says where).
    """
    files = sorted(directory.glob("*.jsonl")) if directory.is_dir() else []
    if not files:
        raise InvalidInput(
            f"--replay {directory}: no .jsonl session files there", field="replay", rule="sessions"
        )
    labels: dict[str, object] = {}
    labels_file = directory / "labels.json"
    if labels_file.is_file():
        try:
            loaded = json.loads(labels_file.read_text(encoding="utf-8"))
        except ValueError as error:
            raise InvalidInput(
                f"labels.json is not JSON: {error}", field="labels", rule="json"
            ) from error
        if not isinstance(loaded, dict):
            raise InvalidInput("labels.json: expected an object", field="labels", rule="object")
        labels = loaded
    names = {file.name for file in files}
    stray = sorted(set(labels) - names)
    if stray:
        raise InvalidInput(
            f"labels.json names {stray[0]!r}, which is not a session file here",
            field=stray[0],
            rule="session_file",
        )
    sessions = []
    for file in files:
        payloads, unreadable = [], 0
        for line in file.read_bytes().splitlines():
            try:
                payload = json.loads(line)
            except ValueError:
                unreadable += 1
                continue
            if isinstance(payload, dict):
                payloads.append(payload)
            else:
                unreadable += 1
        entry = _labels(labels[file.name], file.name) if file.name in labels else Labels()
        sessions.append(RecordedSession(file.name, payloads, entry, unreadable))
    return sessions


def contains(text: str, phrase: str) -> bool:
    """Whether ``phrase`` occurs in ``text`` as whole words, ignoring case."""
    pattern = rf"(?<!\w){re.escape(phrase.strip())}(?!\w)"
    return re.search(pattern, text, re.IGNORECASE) is not None


def _words(text: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(text)}


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def event_text(event: HookEvent) -> str:
    """What a raw-capture memory of an event holds: its prompt, command, edits, output."""
    edits = [
        v for k, v in sorted(event.tool_input.items()) if k != "file_path" and isinstance(v, str)
    ]
    parts = [event.prompt, event.command, *edits, event.output, event.message]
    return "\n".join(part for part in parts if part)


@dataclass
class Injected:
    """What one event got injected (empty text: nothing)."""

    kind: EventKind
    asked: str
    text: str
    tokens: int


@dataclass
class SessionRun:
    """What one arm did with one session."""

    name: str
    project: str
    labels: Labels
    events: int = 0
    formed: list[tuple[str, str]] = field(default_factory=list)
    """(memory id, statement) of each memory created in this session."""
    hostile_candidates: list[str] = field(default_factory=list)
    """Statements that came from a hostile session's tool output (baseline) or were
    created in a hostile session (graphmem)."""
    live_after: int = 0
    injected: list[Injected] = field(default_factory=list)
    consolidation_ms: float = 0.0
    unresolved: int = 0
    """Phrases of ``replaces`` a live memory still states without a conflict."""


def _injected(kind: EventKind, asked: str, text: str) -> Injected:
    return Injected(kind, asked, text, count_tokens(text) if text else 0)


def _context_text(output: str) -> str:
    """The text a host output adds to the agent's context ("" for nothing)."""
    if not output.strip():
        return ""
    try:
        parsed = json.loads(output)
    except ValueError:
        return output
    return "\n".join(text for text in _strings(parsed) if text not in _EVENT_NAMES and text.strip())


_EVENT_NAMES = frozenset({"SessionStart", "UserPromptSubmit", "PreToolUse", "BeforeAgent"})


def _remap(payload: Mapping[str, Any], work: Path, trees: dict[str, Path]) -> dict[str, Any]:
    """The payload with its recorded cwd replaced by a scratch git work tree of its name."""
    recorded = payload.get("cwd")
    if not isinstance(recorded, str) or not recorded:
        return dict(payload)
    tree = trees.get(recorded)
    if tree is None:
        name = Path(recorded).name or "root"
        tree = work / name
        (tree / ".git").mkdir(parents=True, exist_ok=True)
        trees[recorded] = tree
    remapped: dict[str, Any] = json.loads(json.dumps(payload).replace(recorded, str(tree)))
    return remapped


class _GraphmemArm:
    """graphmem as capture runs it: hooks, gates at the boundary, injection."""

    def __init__(self, memory: GraphMem, data_dir: Path, host: HostAdapter) -> None:
        self.memory = memory
        self.data_dir = data_dir
        self.host = host
        self.injector = Injector(lambda _principal: memory, resolve_injection())
        self.episode_session: dict[str, str] = {}
        """Episode id -> the session file it was written from."""
        self.formed_ids: set[str] = set()

    def event(self, run: SessionRun, captured: Captured) -> None:
        event = captured.event
        if event.kind in _CONTEXT_KINDS:
            try:
                output = self.injector.answer(self.memory.principal, self.host, captured)
            except GraphMemError:
                output = ""  # what the server answers when memory cannot be read
            text = _context_text(output)
            asked = event.prompt or event.command or ""
            run.injected.append(
                Injected(event.kind, asked, text, count_tokens(text) if text else 0)
            )
        if captured.boundary:
            self._consolidate(run, event.session_id)

    def _consolidate(self, run: SessionRun, session_id: str) -> None:
        started = time.perf_counter()
        state = self.memory.consolidate_session(session_id)
        run.consolidation_ms += (time.perf_counter() - started) * 1000
        for episode in (*state.episodes, *state.segments):
            self.episode_session[episode] = run.name
        new = [f for f in state.formed if f.id not in self.formed_ids]
        self.formed_ids.update(f.id for f in new)
        run.formed += [(f.id, f.statement) for f in new]

    def end(self, run: SessionRun, session_id: str | None) -> None:
        if session_id is not None:
            with suppress(NotFound):  # NotFound: the project opted out, nothing captured
                state = self.memory.session(session_id)
                if state.consolidated_to != state.last_offset:
                    self._consolidate(run, session_id)  # no end came: the idle sweep's work
        if run.labels.hostile:
            run.hostile_candidates = [
                statement
                for _, statement in run.formed
                if not _any(statement, run.labels.true_beliefs)
            ]
        live = self.memory.list_beliefs(project=run.project, limit=MAX_BATCH_ROWS)
        run.live_after = len(live)
        if run.labels.replaces:
            conflicted = self.memory.list_beliefs(conflicted=True, limit=MAX_BATCH_ROWS)
            open_conflict = {belief.id for belief in conflicted}
            standing = [b for b in live if b.type in RULE_TYPES and b.id not in open_conflict]
            run.unresolved = sum(
                any(contains(b.statement, phrase) for b in standing)
                for phrase in run.labels.replaces
            )

    def live(self) -> list[tuple[str, str]]:
        return [(b.type.value, b.statement) for b in self.memory.list_beliefs(limit=MAX_BATCH_ROWS)]

    def cited(self, memory_id: str) -> set[str]:
        """The sessions a formed belief cites (through its evidence episodes)."""
        try:
            belief: Belief = self.memory.get_belief(memory_id)
        except NotFound:
            return set()
        return {
            self.episode_session[e.episode_id]
            for e in belief.evidence
            if e.episode_id in self.episode_session
        }


class _RawArm:
    """The baseline: every captured event its own memory; top matches injected."""

    def __init__(self, memory: GraphMem) -> None:
        self.memory = memory
        self.stored: list[tuple[str, str]] = []
        """(project, text) of every memory stored."""

    def event(self, run: SessionRun, captured: Captured, index: int) -> None:
        event = captured.event
        asked = event.prompt or event.command or ""
        if event.kind in (EventKind.PROMPT, EventKind.PRE_TOOL) and asked.strip():
            found = self.memory.search_episodes(asked, k=BASELINE_K, project=captured.project)
            text = found.rendered if found.items else ""
            run.injected.append(
                Injected(event.kind, asked, text, count_tokens(text) if text else 0)
            )
        elif event.kind is EventKind.SESSION_START:
            run.injected.append(Injected(event.kind, "", "", 0))
        text, _ = spool.redact(event_text(event))
        if not text.strip() or captured.written is None:
            return
        started = time.perf_counter()
        episode = self.memory.remember(
            {
                "project": captured.project,
                "kind": "run",
                "title": f"{event.host_event} in {run.name}"[:500],
                "text": text,
                "idempotency_key": f"raw:{run.name}:{index}"[:200],
            }
        )
        run.consolidation_ms += (time.perf_counter() - started) * 1000
        run.formed.append((episode, text))
        self.stored.append((captured.project, text))
        hostile = run.labels.hostile and event.kind is EventKind.POST_TOOL
        if hostile and not _any(text, run.labels.true_beliefs):
            run.hostile_candidates.append(text)

    def end(self, run: SessionRun) -> None:
        mine = [text for project, text in self.stored if project == run.project]
        run.live_after = len(mine)
        run.unresolved = sum(
            any(contains(text, phrase) for text in mine) for phrase in run.labels.replaces
        )

    def live(self) -> list[tuple[str, str]]:
        return [("memory", text) for _, text in self.stored]


def _any(text: str, phrases: Sequence[str]) -> bool:
    return any(contains(text, phrase) for phrase in phrases)


def _session_words(records: Sequence[SpoolRecord]) -> set[str]:
    words: set[str] = set()
    for record in records:
        for text in _strings(record.event.to_record()):
            words |= _words(text)
    return words


def _fabricated(statement: str, allowed: set[str]) -> bool:
    """Whether a statement holds a word neither its cited events nor a template hold.

    A template's own words (:data:`FRAME_WORDS`) and the placeholders of a folded error
    signature (:data:`FOLD_MARKS`: ``<n>`` for a number) are not the events' words.
    """
    return bool(_words(statement) - allowed - FRAME_WORDS - FOLD_MARKS)


def _duplicates(live: Sequence[tuple[str, str]], embedder: Embedder, threshold: float) -> int:
    """Live memories that repeat an earlier one of the same type."""
    repeated = 0
    by_type: dict[str, list[str]] = {}
    for kind, statement in live:
        by_type.setdefault(kind, []).append(statement)
    for statements in by_type.values():
        if len(statements) < 2:
            continue
        vectors = np.asarray(embedder.embed(statements), dtype=np.float32)
        similarity = vectors @ vectors.T
        for j in range(1, len(statements)):
            if any(
                is_duplicate(statements[i], statements[j], float(similarity[i, j]), threshold)
                for i in range(j)
            ):
                repeated += 1
    return repeated


def score_pairs(pairs: Sequence[tuple[str, str, bool]], embedder: Embedder) -> dict[str, Any]:
    """The duplicate detector's precision and recall on labelled pairs, per threshold."""
    if not pairs:
        return {}
    vectors = np.asarray(embedder.embed([text for a, b, _ in pairs for text in (a, b)]))
    cosines = [float(vectors[2 * i] @ vectors[2 * i + 1]) for i in range(len(pairs))]
    scored = {}
    for threshold in THRESHOLDS_SHOWN:
        said = [
            is_duplicate(a, b, c, threshold) for (a, b, _), c in zip(pairs, cosines, strict=True)
        ]
        true = sum(s and label for s, (_, _, label) in zip(said, pairs, strict=True))
        scored[f"{threshold:.2f}"] = {
            "precision": round(true / max(1, sum(said)), 3),
            "recall": round(true / max(1, sum(label for _, _, label in pairs)), 3),
        }
    return {"pairs": len(pairs), "positives": sum(p[2] for p in pairs), "by_threshold": scored}


def _load_pairs(directory: Path) -> list[tuple[str, str, bool]]:
    path = directory / "pairs.json"
    if not path.is_file():
        return []
    raw = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(raw, list) or not all(
        isinstance(p, list) and len(p) == 3 and isinstance(p[2], bool) for p in raw
    ):
        raise InvalidInput(
            "pairs.json: expected a list of [text, text, true|false]", field="pairs", rule="pairs"
        )
    return [(str(a), str(b), bool(label)) for a, b, label in raw]


def _percentile(values: Sequence[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(share * len(ordered)))])


def _figures(
    runs: Sequence[SessionRun],
    live: Sequence[tuple[str, str]],
    fabricated: int,
    checked: int,
    embedder: Embedder,
) -> dict[str, Any]:
    """Every metric of one arm (the keys ``--json`` documents)."""
    by_project: dict[str, list[SessionRun]] = {}
    for run in runs:
        by_project.setdefault(run.project, []).append(run)
    growth: dict[str, Any] = {}
    first_total = last_total = 0
    for project, project_runs in sorted(by_project.items()):
        formed = [len(run.formed) for run in project_runs]
        third = len(formed) // 3
        if third == 0:
            continue
        first, last = sum(formed[:third]), sum(formed[-third:])
        first_total, last_total = first_total + first, last_total + last
        growth[project] = {
            "formed_per_session": formed,
            "live_after_session": [run.live_after for run in project_runs],
            "ratio": round(last / first, 3) if first else None,
        }
    remembered = [(run, p) for run in runs for p in run.labels.should_remember]
    formed_so_far: list[str] = []
    formed_hits = 0
    for run in runs:
        formed_so_far += [statement for _, statement in run.formed]
        formed_hits += sum(
            any(contains(s, phrase) for s in formed_so_far) for phrase in run.labels.should_remember
        )
    wanted = [(run, p) for run in runs for p in run.labels.expect_injected]
    injected_hits = sum(
        any(contains(i.text, phrase) for i in run.injected) for run, phrase in wanted
    )
    dead_end_runs = [run for run in runs if run.labels.expect_dead_end]
    dead_end_hits = sum(
        all(any(contains(i.text, p) for i in run.injected) for p in run.labels.expect_dead_end)
        for run in dead_end_runs
    )
    quiet = [(run, prompt) for run in runs for prompt in run.labels.expect_nothing_for]
    noisy = sum(
        any(i.kind is EventKind.PROMPT and i.asked == prompt and i.text for i in run.injected)
        for run, prompt in quiet
    )
    labelled = [statement for run in runs if run.labels.true_beliefs for _, statement in run.formed]
    true = sum(
        _any(statement, run.labels.true_beliefs)
        for run in runs
        if run.labels.true_beliefs
        for _, statement in run.formed
    )
    per_prompt = [
        float(i.tokens) for run in runs for i in run.injected if i.kind is EventKind.PROMPT
    ]
    per_session = [float(sum(i.tokens for i in run.injected)) for run in runs]
    events = sum(run.events for run in runs)
    ms = [run.consolidation_ms for run in runs]
    duplicates = _duplicates(live, embedder, DUPLICATE_THRESHOLD)
    return {
        "growth_ratio": round(last_total / first_total, 3) if first_total else None,
        "duplicate_rate": round(duplicates / max(1, len(live)), 4),
        "precision": round(true / len(labelled), 3) if labelled else None,
        "consequential_recall": {
            "formed": round(formed_hits / len(remembered), 3) if remembered else None,
            "injected": round(injected_hits / len(wanted), 3) if wanted else None,
        },
        "dead_end_recall": round(dead_end_hits / len(dead_end_runs), 3) if dead_end_runs else None,
        "contradictions_unresolved": sum(run.unresolved for run in runs),
        "no_fabrication": round(1 - fabricated / checked, 4) if checked else None,
        "hostile_beliefs": sum(len(run.hostile_candidates) for run in runs),
        "injected_tokens_median": statistics.median(per_prompt) if per_prompt else 0,
        "ms_per_session": round(statistics.median(ms), 1) if ms else 0,
        "injected_tokens": {
            "per_prompt_p95": _percentile(per_prompt, 0.95),
            "per_prompt_mean": round(statistics.fmean(per_prompt), 1) if per_prompt else 0,
            "per_session_median": statistics.median(per_session) if per_session else 0,
            "per_session_p95": _percentile(per_session, 0.95),
        },
        "ms_per_event": round(sum(ms) / max(1, events), 2),
        "unwanted_injections": f"{noisy}/{len(quiet)}",
        "live": len(live),
        "duplicates": duplicates,
        "formed": sum(len(run.formed) for run in runs),
        "growth": growth,
    }


def run_replay_bench(
    directory: Path,
    host: str = "claude-code",
    embedder: Embedder | None = None,
    progress: Callable[[int], None] = lambda done: None,
) -> dict[str, Any]:
    """Replays DIR's sessions into graphmem and the raw-capture baseline; the figures.

    Raises:
        InvalidInput: DIR holds no session, its labels are not valid, or ``host`` is
            not a known host.
    """
    sessions = load_corpus(directory)
    try:
        adapter = host_adapter(host)
    except KeyError as error:
        raise InvalidInput(str(error.args[0]), field="host", rule="known_host") from error
    pairs = _load_pairs(directory)
    embedder = embedder or default_embedder()  # one model for both arms
    with tempfile.TemporaryDirectory(prefix="graphmem-replay-") as scratch:
        root = Path(scratch)
        ours_dir, raw_dir, work = root / "graphmem", root / "raw", root / "work"
        for path in (ours_dir, raw_dir):
            make_private_dir(path)
        with scratch_memory(embedder, ours_dir) as ours, scratch_memory(embedder, raw_dir) as raw:
            figures = _replay(
                sessions, adapter, ours, raw, (ours_dir, raw_dir, work), embedder, progress
            )
    figures["duplicate_detector"] = {
        "threshold": DUPLICATE_THRESHOLD,
        **score_pairs(pairs, embedder),
    }
    return figures


def _replay(
    sessions: Sequence[RecordedSession],
    adapter: HostAdapter,
    ours: GraphMem,
    raw: GraphMem,
    directories: tuple[Path, Path, Path],
    embedder: Embedder,
    progress: Callable[[int], None],
) -> dict[str, Any]:
    """Both arms, session by session (directories: graphmem's, the baseline's, work trees)."""
    ours_dir, raw_dir, work = directories
    graphmem_arm = _GraphmemArm(ours, ours_dir, adapter)
    raw_arm = _RawArm(raw)
    trees: dict[str, Path] = {}
    ours_runs: list[SessionRun] = []
    raw_runs: list[SessionRun] = []
    skipped = 0
    session_records: dict[str, list[SpoolRecord]] = {}
    for session in sessions:
        ours_run = raw_run = None
        session_id: str | None = None
        for index, recorded in enumerate(session.payloads):
            payload = _remap(recorded, work, trees)
            try:
                # No background consolidation: the replay consolidates at each boundary, in order.
                ours_captured = capture(
                    ours_dir, ours.principal, adapter, payload, background=False
                )
                raw_captured = capture(raw_dir, raw.principal, adapter, payload, background=False)
            except (PayloadError, ValueError, OSError):
                skipped += 1
                continue
            session_id = ours_captured.event.session_id
            if ours_run is None or raw_run is None:
                ours_run = SessionRun(session.name, ours_captured.project, session.labels)
                raw_run = SessionRun(session.name, raw_captured.project, session.labels)
            ours_run.events += 1
            raw_run.events += 1
            graphmem_arm.event(ours_run, ours_captured)
            raw_arm.event(raw_run, raw_captured, index)
        if ours_run is None or raw_run is None:
            progress(1)
            continue
        graphmem_arm.end(ours_run, session_id)
        raw_arm.end(raw_run)
        if session_id is not None:
            path = spool.spool_file(ours_dir, ours.principal, session_id)
            session_records[session.name] = list(spool.read(path))
        ours_runs.append(ours_run)
        raw_runs.append(raw_run)
        progress(1)
    words = {name: _session_words(records) for name, records in session_records.items()}
    fabricated = checked = 0
    for run in ours_runs:
        for memory_id, statement in run.formed:
            cited = graphmem_arm.cited(memory_id) or {run.name}
            allowed = set().union(*(words.get(name, set()) for name in cited))
            fabricated += _fabricated(statement, allowed)
            checked += 1
    raw_fabricated = sum(
        _fabricated(text, words.get(run.name, set())) for run in raw_runs for _, text in run.formed
    )
    raw_checked = sum(len(run.formed) for run in raw_runs)
    figures = _figures(ours_runs, graphmem_arm.live(), fabricated, checked, embedder)
    figures["baseline"] = _figures(raw_runs, raw_arm.live(), raw_fabricated, raw_checked, embedder)
    figures.update(
        sessions=len(ours_runs),
        projects=len({run.project for run in ours_runs}),
        events=sum(run.events for run in ours_runs),
        unreadable_lines=sum(s.unreadable for s in sessions) + skipped,
    )
    return figures
