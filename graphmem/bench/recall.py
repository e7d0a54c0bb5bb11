"""``graphmem bench recall``: turn-level retrieval on LoCoMo or the generic format.

Each conversation becomes an isolated principal; each session an episode and each turn
an episode ``PART_OF`` it (its session date as ``started_at``). Each question is asked
with ``search_episodes``, once fused and once per arm alone, in the same run, and the
two BM25 baselines of :mod:`graphmem.bench.bm25` rank the same turns.
A hit that is not a turn (a session episode) counts as a miss. Category and evidence
never reach graphmem: they are only used to score. The data set is read from a path
(LoCoMo is CC BY-NC: never shipped).
"""

from __future__ import annotations

import json
import math
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.bench.bm25 import BASELINES
from graphmem.bench.scratch import scratch_memory
from graphmem.bench.stats import percentile
from graphmem.client import GraphMem
from graphmem.errors import InvalidInput

ARM_SETS: dict[str, tuple[str, ...]] = {
    "fused": ("lexical", "semantic", "graph", "time"),
    "lexical": ("lexical",),
    "semantic": ("semantic",),
    "graph": ("graph",),
}
"""Each question is asked once per set. ``graph`` alone ranks only the graph arm's
list (session neighbours of the best lexical/semantic candidates)."""
_NOT_A_TURN = "not-a-turn:"
_LOCOMO_DATE = "%I:%M %p on %d %B, %Y"
_TURN_ID = re.compile(r"^D(\d+):(\d+)$")


@dataclass
class Turn:
    """One dialog turn: its id, speaker, text, its session and when that happened."""

    id: str
    speaker: str
    text: str
    date: datetime | None
    session: str = ""


@dataclass
class Question:
    """One question with the turn ids that hold its answer (for scoring only)."""

    id: str
    text: str
    evidence: list[str]
    category: str
    date: datetime | None = None


@dataclass
class Conversation:
    """One isolated memory: its turns and the questions asked of it."""

    id: str
    turns: list[Turn]
    questions: list[Question]


@dataclass
class DataSet:
    """A loaded benchmark and what had to be repaired or dropped."""

    name: str
    conversations: list[Conversation]
    repaired_evidence: int = 0
    dropped_evidence: list[str] = field(default_factory=list)
    dropped_questions: int = 0


def _repair(raw: str, known: set[str]) -> tuple[list[str], bool]:
    """Fixes LoCoMo's malformed evidence ids where the fix is unambiguous."""
    fixed: list[str] = []
    for part in re.split(r"[;,\s]+", raw.strip()):
        candidate = part.strip().replace("D:", "D")
        match = _TURN_ID.match(candidate)
        if match:
            candidate = f"D{int(match.group(1))}:{int(match.group(2))}"
        if candidate in known:
            fixed.append(candidate)
    return fixed, fixed != [raw]


def load_locomo(path: Path) -> DataSet:
    """Reads LoCoMo's own ``locomo10.json``."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    data = DataSet(name=path.stem, conversations=[])
    for sample in raw:
        conversation = sample["conversation"]
        turns: list[Turn] = []
        sessions = sorted(
            (int(key.removeprefix("session_")), key)
            for key in conversation
            if re.fullmatch(r"session_\d+", key)
        )
        for number, key in sessions:
            stamp = conversation.get(f"{key}_date_time")
            date = datetime.strptime(stamp, _LOCOMO_DATE).replace(tzinfo=UTC) if stamp else None
            for turn in conversation[key]:
                text = turn["text"]
                if turn.get("blip_caption"):
                    text += f" [shares a photo: {turn['blip_caption']}]"
                turns.append(Turn(turn["dia_id"], turn["speaker"], text, date, f"S{number}"))
        known = {turn.id for turn in turns}
        questions: list[Question] = []
        for index, item in enumerate(sample["qa"]):
            evidence: list[str] = []
            for raw_id in item.get("evidence", []):
                fixed, changed = _repair(raw_id, known)
                data.repaired_evidence += int(changed and bool(fixed))
                if not fixed:
                    data.dropped_evidence.append(f"{sample['sample_id']}#{index}:{raw_id}")
                evidence.extend(e for e in fixed if e not in evidence)
            if not evidence:
                data.dropped_questions += 1
                continue
            questions.append(
                Question(
                    f"{sample['sample_id']}#{index}",
                    item["question"],
                    evidence,
                    str(item["category"]),
                )
            )
        data.conversations.append(Conversation(sample["sample_id"], turns, questions))
    return data


def load_generic(path: Path) -> DataSet:
    """Reads the generic format (docs/benchmarks.md describes it)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    data = DataSet(name=raw.get("name", path.stem), conversations=[])
    for conversation in raw["conversations"]:
        turns = [
            Turn(
                turn["id"],
                turn.get("speaker", ""),
                turn["text"],
                _aware(session.get("date")),
                str(session.get("id", index)),
            )
            for index, session in enumerate(conversation["sessions"])
            for turn in session["turns"]
        ]
        known = {turn.id for turn in turns}
        questions = []
        for question in conversation["questions"]:
            evidence = [e for e in question["evidence"] if e in known]
            data.dropped_evidence.extend(e for e in question["evidence"] if e not in known)
            if not evidence:
                data.dropped_questions += 1
                continue
            questions.append(
                Question(
                    question["id"],
                    question["question"],
                    evidence,
                    str(question.get("category", "all")),
                    _aware(question.get("date")),
                )
            )
        data.conversations.append(Conversation(conversation["id"], turns, questions))
    return data


def _aware(value: str | None) -> datetime | None:
    if value is None:
        return None
    parsed = datetime.fromisoformat(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def load(path: Path, data_format: str) -> DataSet:
    """Loads a benchmark file in ``locomo`` or ``generic`` format."""
    if not path.is_file():
        raise InvalidInput(f"--data: {path} is not a file", field="data", rule="exists")
    if data_format == "locomo":
        return load_locomo(path)
    if data_format == "generic":
        return load_generic(path)
    raise InvalidInput("--format: use locomo or generic", field="format", rule="enum")


def _episode(turn: Turn, project: str) -> dict[str, Any]:
    """A turn as an episode: who spoke and when (title), and what was said (text)."""
    when = f" on {turn.date:%d %B %Y}" if turn.date else ""
    return {
        "project": project,
        "kind": "message",
        "title": f"{turn.speaker}{when}"[:500] or turn.id,
        "text": f"{turn.speaker}: {turn.text}",
        "started_at": turn.date,
        "idempotency_key": turn.id,
    }


def metrics(
    ranked: Sequence[str], evidence: Sequence[str], session_of: Mapping[str, str] | None = None
) -> dict[str, float]:
    """R@5, R@10, hit@10, all@10, NDCG@10 (binary) and MRR for one question.

    With ``session_of`` (turn id → session) also session any@5 and any@10: whether the
    first 5 (10) distinct sessions of the ranked turns hold a session of the evidence.
    """
    relevant = set(evidence)
    top5, top10 = set(ranked[:5]), set(ranked[:10])
    dcg = sum(1 / math.log2(i + 2) for i, turn in enumerate(ranked[:10]) if turn in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(10, len(relevant))))
    first = next((i + 1 for i, turn in enumerate(ranked) if turn in relevant), None)
    row = {
        "R@5": len(top5 & relevant) / len(relevant),
        "R@10": len(top10 & relevant) / len(relevant),
        "hit@10": float(bool(top10 & relevant)),
        "all@10": float(relevant <= top10),
        "NDCG@10": dcg / ideal,
        "MRR": 1 / first if first else 0.0,
    }
    if session_of is not None:
        gold = {session_of[turn] for turn in relevant if turn in session_of}
        sessions = list(dict.fromkeys(session_of[t] for t in ranked if t in session_of))
        row["session_any@5"] = float(bool(gold & set(sessions[:5])))
        row["session_any@10"] = float(bool(gold & set(sessions[:10])))
    return row


def _average(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    return {key: round(statistics.fmean(row[key] for row in rows), 4) for key in rows[0]}


def _ingest(memory: GraphMem, conversation: Conversation) -> dict[str, str]:
    """Writes each session as an episode and its turns as episodes PART_OF it.

    Returns:
        Turn episode id → turn id (session episodes are not turns: not mapped).
    """
    sessions: dict[str, datetime | None] = {}
    for turn in conversation.turns:
        sessions.setdefault(turn.session, turn.date)
    session_rows = [
        {
            "project": conversation.id,
            "kind": "session",
            "title": f"Session {name}" + (f" on {date:%d %B %Y}" if date else ""),
            "started_at": date,
            "idempotency_key": f"session:{name}",
        }
        for name, date in sessions.items()
    ]
    parent = dict(zip(sessions, memory.remember_many(session_rows), strict=True))
    ids: dict[str, str] = {}
    rows = [
        {**_episode(turn, conversation.id), "parent": parent[turn.session]}
        for turn in conversation.turns
    ]
    for start in range(0, len(rows), 1_000):
        chunk = rows[start : start + 1_000]
        for episode_id, row in zip(memory.remember_many(chunk), chunk, strict=True):
            ids[episode_id] = row["idempotency_key"]
    memory.search_episodes("warm up", k=1)  # embeds the turns into the semantic view
    return ids


def _run_questions(
    memory: GraphMem,
    conversation: Conversation,
    turn_of: dict[str, str],
    k: int,
    arms: tuple[str, ...],
    latencies: list[float],
) -> Iterator[tuple[Question, list[str]]]:
    for question in conversation.questions:
        started = time.perf_counter()
        found = memory.search_episodes(question.text, k=max(k, 10), arms=arms, as_of=question.date)
        latencies.append((time.perf_counter() - started) * 1000)
        yield question, [turn_of.get(item.id, _NOT_A_TURN + item.id) for item in found.items]


def _dated(date: datetime | None) -> str:
    return f"({date:%d %B %Y}) " if date else ""


def _baseline(
    name: str, conversation: Conversation, k: int, latencies: list[float]
) -> Iterator[tuple[Question, list[str]]]:
    """A baseline's ranking of the conversation's turns for each question."""
    bm25 = BASELINES[name](
        [
            (turn.id, f"{_dated(turn.date)}{turn.speaker}: {turn.text}", turn.date)
            for turn in conversation.turns
        ]
    )
    for question in conversation.questions:
        started = time.perf_counter()
        ranked = bm25.rank(question.text, max(k, 10), question.date)
        latencies.append((time.perf_counter() - started) * 1000)
        yield question, ranked


def run_recall_bench(
    data: DataSet,
    k: int = 10,
    out: Path | None = None,
    progress: Callable[[int], None] = lambda done: None,
    arm_sets: Sequence[str] = tuple(ARM_SETS),
) -> dict[str, Any]:
    """Runs every question through each arm set and both baselines; returns the figures.

    Args:
        data: The loaded data set.
        k: How many turns each question ranks (and ``out`` keeps); at least 10.
        out: Where to write the first arm set's ranked turn ids per question (JSONL).
        progress: Called with the number of questions just answered.
        arm_sets: Which of :data:`ARM_SETS` to run (the baselines always run).
    """
    unknown = sorted(set(arm_sets) - set(ARM_SETS))
    if unknown or not arm_sets:
        raise InvalidInput(f"--arms: use some of {', '.join(ARM_SETS)}", field="arms", rule="enum")
    results: dict[str, list[tuple[Question, list[str]]]] = defaultdict(list)
    latencies: dict[str, list[float]] = defaultdict(list)
    session_of: dict[str, str] = {}
    ingest_seconds = 0.0
    with ExitStack() as stack:
        for conversation in data.conversations:
            session_of.update(
                (turn.id, f"{conversation.id}/{turn.session}") for turn in conversation.turns
            )
            for name in BASELINES:
                results[name].extend(_baseline(name, conversation, k, latencies[name]))
            memory = stack.enter_context(scratch_memory())
            started = time.perf_counter()
            turn_of = _ingest(memory, conversation)
            ingest_seconds += time.perf_counter() - started
            for name in arm_sets:
                arms = ARM_SETS[name]
                for pair in _run_questions(memory, conversation, turn_of, k, arms, latencies[name]):
                    results[name].append(pair)
                    progress(1)
    if out is not None:
        with out.open("w", encoding="utf-8") as handle:
            for question, ranked in results[arm_sets[0]]:
                line = {"question_id": question.id, "ranked": ranked[:k]}
                handle.write(json.dumps(line) + "\n")
    report: dict[str, Any] = {
        "data": data.name,
        "conversations": len(data.conversations),
        "turns": sum(len(c.turns) for c in data.conversations),
        "questions": sum(len(c.questions) for c in data.conversations),
        "dropped_questions": data.dropped_questions,
        "repaired_evidence": data.repaired_evidence,
        "dropped_evidence": data.dropped_evidence,
        "ingest_seconds": round(ingest_seconds, 2),
    }
    for name in [*arm_sets, *BASELINES]:
        scored = [(q, metrics(ranked, q.evidence, session_of)) for q, ranked in results[name]]
        by_category: dict[str, list[dict[str, float]]] = defaultdict(list)
        for question, row in scored:
            by_category[question.category].append(row)
        report[name] = {
            "overall": _average([row for _, row in scored]),
            "by_category": {c: _average(rows) for c, rows in sorted(by_category.items())},
            "latency_ms": {
                "p50": round(statistics.median(latencies[name]), 2),
                "p95": round(percentile(latencies[name], 95), 2),
            },
        }
    report["best_baseline"] = max(BASELINES, key=lambda name: report[name]["overall"]["R@10"])
    return report
