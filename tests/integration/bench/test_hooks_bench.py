"""`graphmem bench hooks --json` end to end with a few events: structure and sanity only.

Timings are never asserted: the machine is shared.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from graphmem.cli import app

EVENTS = 14
KINDS = {
    "PostToolUse",
    "PostToolUseFailure",
    "PreToolUse",
    "SessionEnd",
    "SessionStart",
    "Stop",
    "UserPromptSubmit",
}


def test_the_hooks_bench_reports_every_kind_on_every_transport(bench_env: Path) -> None:
    done = CliRunner().invoke(app, ["bench", "hooks", "--events", str(EVENTS), "--json"])
    assert done.exit_code == 0, done.output
    figures = json.loads(done.stdout)
    assert figures["events"] == EVENTS and set(figures["kinds"]) == KINDS
    assert figures["forward_fell_back"] == 0
    for baseline in figures["baselines"].values():
        assert 0 < baseline["p50_ms"] <= baseline["p95_ms"] and baseline["n"] == EVENTS
    assert set(figures["transports"]) == {"command_spool", "command_forward", "http"}
    for transport in figures["transports"].values():
        assert transport["baseline"] in figures["baselines"]
        overall = transport["all"]
        assert 0 < overall["p50_ms"] <= overall["p95_ms"] and overall["n"] == EVENTS
        assert set(transport["by_kind"]) == KINDS
        assert sum(kind["n"] for kind in transport["by_kind"].values()) == EVENTS
        for kind in transport["by_kind"].values():
            assert 0 < kind["p50_ms"] <= kind["p95_ms"]
        assert transport["ratio_p50"] > 0 and transport["ratio_p95"] > 0
        assert isinstance(transport["goal_met"], bool)
    assert not list(bench_env.glob("**/hooks.log"))


def test_the_inject_mode_reports_round_trips_and_tokens(bench_env: Path) -> None:
    done = CliRunner().invoke(
        app, ["bench", "hooks", "--inject", "--beliefs", "200", "--events", "16", "--json"]
    )
    assert done.exit_code == 0, done.output
    (figures,) = json.loads(done.stdout)["sizes"]
    assert figures["beliefs"] == 200 and figures["rounds"] == 16
    assert sum(figures["load"]["mix"].values()) == 200 and len(figures["load"]["mix"]) >= 4
    assert figures["forward_fell_back"] == 0
    for baseline in figures["baselines"].values():
        assert 0 < baseline["p50_ms"] <= baseline["p95_ms"] and baseline["n"] == 16
    for transport in figures["transports"].values():
        assert transport["baseline"] in figures["baselines"]
        for kind in ("SessionStart", "UserPromptSubmit"):
            timed = transport[kind]
            assert 0 < timed["p50_ms"] <= timed["p95_ms"] and timed["n"] == 16
            assert timed["ratio_p50"] > 0 and timed["ratio_p95"] > 0
    goal = figures["goal"]
    assert goal["ratio_p95"] > 0 and isinstance(goal["met"], bool)
    injected = figures["injection"]
    assert injected["prompts"] == 16 and injected["brief_share"] > 0
    by_prompt = injected["by_prompt"]
    assert any(p["related"] and p["median_tokens"] > 0 for p in by_prompt)
    assert any(not p["related"] for p in by_prompt)
    assert all(p["median_tokens"] == 0 for p in by_prompt if not p["related"])
    assert injected["median_tokens_when_injected"] > 0
    assert not list(bench_env.glob("**/hooks.log"))
