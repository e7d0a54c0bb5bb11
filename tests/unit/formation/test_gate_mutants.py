"""Every gate's mutant is killed: with the gate disabled alone, its killer test fails.

The mutants and their killers are in ``tests/mutants.py``. Each killer runs in a
pytest of its own, once with no mutant (the control: the plugin loaded and inert, the
test green) and once with its mutant, which must fail it with an ``AssertionError``.
The controls run in one process, beside the mutants' runs (all in parallel).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.mutants import ENV, KILLED, MUTANTS, SUMMARY, Mutant

ROOT = Path(__file__).resolve().parents[3]
Completed = subprocess.CompletedProcess[str]


def _pytest(nodeids: list[str], mutant: str | None) -> Completed:
    env = {key: value for key, value in os.environ.items() if key != ENV}
    if mutant is not None:
        env[ENV] = mutant
    command = [sys.executable, "-m", "pytest", "-p", "tests.mutants", "-q", "-rA"]
    command += ["-p", "no:cacheprovider", *nodeids]
    return subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )


@dataclass
class Runs:
    """The control run of every killer, and each mutant's run, all started at once."""

    control: Future[Completed]
    mutated: dict[str, Future[Completed]]


@pytest.fixture(scope="module")
def runs() -> Iterator[Runs]:
    killers = sorted({mutant.killer for mutant in MUTANTS.values()})
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 1)) as pool:
        started = Runs(
            pool.submit(_pytest, killers, None),
            {name: pool.submit(_pytest, [m.killer], name) for name, m in MUTANTS.items()},
        )
        yield started
        for future in [started.control, *started.mutated.values()]:
            future.cancel()


def test_every_gate_has_a_mutant() -> None:
    gates = {mutant.gate for mutant in MUTANTS.values()}
    assert gates == {
        "validation",
        "frequency",
        "novelty",
        "trust",
        "score and cap",
        "tombstones and rejections",
        "sensitivity",
    }


@pytest.mark.parametrize("mutant", MUTANTS.values(), ids=lambda m: f"{m.name}-{m.killer}")
def test_mutant_is_killed(mutant: Mutant, runs: Runs) -> None:
    clean = runs.control.result()
    assert clean.returncode == 0, clean.stdout[-3000:] + clean.stderr[-2000:]
    assert f"PASSED {mutant.killer}" in clean.stdout.splitlines()
    assert SUMMARY not in clean.stdout  # the plugin is inert without the variable

    run = runs.mutated[mutant.name].result()
    output = run.stdout + run.stderr
    assert run.returncode == 1, output[-3000:]
    lines = run.stdout.splitlines()
    assert any(line.startswith(f"FAILED {mutant.killer}") for line in lines), output[-3000:]
    assert any(line.startswith(f"{SUMMARY} {mutant.name} ") for line in lines), output[-3000:]
    assert f"{KILLED} {mutant.killer} (AssertionError)" in lines, output[-3000:]
