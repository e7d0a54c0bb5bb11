"""``graphmem bench trust``'s labelled set and its error when detect-secrets is missing."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from graphmem.bench.trust import DEFAULT_ROOT, LABELLED
from graphmem.cli import app
from graphmem.trust.injection import scan_all
from graphmem.trust.secrets import find_secrets

ROWS = [
    json.loads(line)
    for line in (DEFAULT_ROOT / LABELLED).read_text(encoding="utf-8").splitlines()
    if line.strip()
]


def test_the_labelled_set_is_well_formed_and_not_all_caught() -> None:
    assert {row["detector"] for row in ROWS} == {"secret", "injection"}
    assert all(row["text"] and row["family"] and row["form"] for row in ROWS)
    missed = {
        row["detector"]
        for row in ROWS
        if not (find_secrets(row["text"]) if row["detector"] == "secret" else scan_all(row["text"]))
    }
    assert missed == {"secret", "injection"}  # hard enough that each detector misses some


def test_the_bench_says_in_one_sentence_that_detect_secrets_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "detect_secrets.__version__", None)
    result = CliRunner().invoke(app, ["bench", "trust"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "detect-secrets, which is not installed" in result.stderr
    assert result.stderr.count(". ") == 0  # one sentence
