"""Listing source files: git or walk, never following symlinks, reasons for the rest."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from graphmem.anchors.files import MAX_FILE_BYTES, list_sources


def _tree(root: Path, outside: Path) -> None:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "ok.py").write_text("def f():\n    return 1\n")
    (root / "pkg" / "big.py").write_text("x = 1\n" * (MAX_FILE_BYTES // 6 + 10))
    (root / "README.md").write_text("# readme\n")
    (outside / "secret.py").write_text("TOKEN = 'x'\n")
    (root / "pkg" / "escape.py").symlink_to(outside / "secret.py")
    (root / "pkg" / "alias.py").symlink_to(root / "pkg" / "ok.py")
    os.mkfifo(root / "pkg" / "pipe.py")


def test_walk_lists_code_and_counts_the_rest(tmp_path: Path) -> None:
    root, outside = tmp_path / "repo", tmp_path / "outside"
    outside.mkdir()
    _tree(root, outside)
    listing = list_sources(root)
    assert [f.path for f in listing.files] == ["pkg/ok.py"]
    assert listing.failures == {
        "pkg/big.py": ("python", "too large (over 1 MB)"),
        "pkg/pipe.py": ("python", "unreadable: not a regular file"),
    }
    assert listing.ignored == {
        "symlink out of root": 1,
        "symlink": 1,
        "unsupported language": 1,
    }


def test_git_work_tree_leaves_ignored_files_out(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "build").mkdir(parents=True)
    (root / "app.py").write_text("def main():\n    pass\n")
    (root / "build" / "gen.py").write_text("def generated():\n    pass\n")
    (root / ".gitignore").write_text("build/\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    listing = list_sources(root)
    assert [f.path for f in listing.files] == ["app.py"]
