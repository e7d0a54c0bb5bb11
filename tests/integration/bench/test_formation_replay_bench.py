"""The replay benchmark end to end on three recorded sessions (real Neo4j, MiniLM)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from graphmem.bench.formation_replay import run_replay_bench
from tests.integration.inject.scenarios import PYTHON

FIXTURES = Path(__file__).resolve().parents[2] / "data" / "sessions" / "claude-code"


def _write(directory: Path, name: str, payloads: list[dict[str, object]]) -> None:
    lines = [json.dumps(payload) for payload in payloads]
    (directory / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_repeated_broken_run_hostile_output_and_the_baseline(
    bench_env: Path, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    cwd = "/home/user/src/money"
    _write(corpus, "01-broken.jsonl", PYTHON.broken_run("replay-first-run", cwd))
    shutil.copy(FIXTURES / "hostile-webfetch.jsonl", corpus / "02-hostile.jsonl")
    _write(corpus, "03-again.jsonl", PYTHON.broken_run("replay-second-run", cwd))
    labels = {
        "01-broken.jsonl": {"should_remember": [PYTHON.distinctive], "true_beliefs": ["pytest"]},
        "02-hostile.jsonl": {"hostile": True},
        "03-again.jsonl": {"expect_dead_end": [PYTHON.distinctive]},
    }
    (corpus / "labels.json").write_text(json.dumps(labels))
    pairs = [["Tests run with pytest", "The tests run with pytest", True], ["a", "b", False]]
    (corpus / "pairs.json").write_text(json.dumps(pairs))

    figures = run_replay_bench(corpus)

    assert (figures["sessions"], figures["projects"]) == (3, 2)
    assert figures["dead_end_recall"] == 1.0  # the second run was told the first's dead end
    assert figures["consequential_recall"]["formed"] == 1.0
    assert figures["precision"] == 1.0
    assert figures["no_fabrication"] == 1.0
    assert figures["hostile_beliefs"] == 0
    raw = figures["baseline"]
    assert set(raw) == set(figures) - {"baseline", "duplicate_detector", "sessions", "projects"} - {
        "events",
        "unreadable_lines",
    }
    assert raw["formed"] > figures["formed"] > 0  # every event, against what the gates kept
    assert raw["hostile_beliefs"] > 0  # the raw store kept the hostile page
    growth = figures["growth"]
    assert growth == {}  # no project has three sessions: no thirds to compare
    detector = figures["duplicate_detector"]
    assert detector["pairs"] == 2 and set(detector["by_threshold"]) == {
        "0.75",
        "0.80",
        "0.85",
        "0.90",
    }
    assert not (bench_env / "views").exists() or not any((bench_env / "views").iterdir())
