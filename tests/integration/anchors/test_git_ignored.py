"""Indexing a directory git ignores: a warning, and --include-ignored walks it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from graphmem import GraphMem
from graphmem.cli import app


def _repo_with_ignored_dir(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "build" / "gen").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / ".gitignore").write_text("build/\n")
    (repo / "app.py").write_text("def tracked():\n    return 1\n")
    (repo / "build" / "gen" / "made.py").write_text("def generated():\n    return 2\n")
    (repo / "build" / "gen" / "more.py").write_text("class Made:\n    pass\n")
    return repo


def test_a_git_ignored_directory_warns_and_can_be_walked(memory: GraphMem, tmp_path: Path) -> None:
    ignored = _repo_with_ignored_dir(tmp_path) / "build"
    silent = memory.index_code(ignored, "gen")
    assert silent.files_seen == 0
    assert silent.ignored == {"ignored by git": 2}
    assert len(silent.warnings) == 1
    assert "git ignores all 2 files" in silent.warnings[0]
    assert "--include-ignored" in silent.warnings[0]
    walked = memory.index_code(ignored, "gen", include_ignored=True)
    assert (walked.files_seen, walked.files_parsed, walked.warnings) == (2, 2, [])
    assert walked.symbols_added == 2


def test_index_cli_says_so_and_takes_include_ignored(
    neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    ignored = _repo_with_ignored_dir(tmp_path) / "build"
    runner = CliRunner()
    plain = runner.invoke(app, ["index", str(ignored), "--project", "gen"], env=neo4j_env)
    assert plain.exit_code == 0, plain.output
    assert "warning: git ignores all 2 files" in plain.stderr
    walked = runner.invoke(
        app,
        ["index", str(ignored), "--project", "gen", "--include-ignored", "--json"],
        env=neo4j_env,
    )
    assert walked.exit_code == 0, walked.output
    summary = json.loads(walked.stdout)
    assert summary["files"]["parsed"] == 2
    assert summary["warnings"] == []


def test_a_tracked_tree_keeps_leaving_ignored_files_out(memory: GraphMem, tmp_path: Path) -> None:
    repo = _repo_with_ignored_dir(tmp_path)
    summary = memory.index_code(repo, "app")
    assert (summary.files_parsed, summary.warnings) == (1, [])
