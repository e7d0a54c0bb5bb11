"""Lists the source files under a root: ``git ls-files`` in a work tree, else a walk.

Inside a work tree, files git ignores are left out (a walk takes them with
``include_ignored``); when git lists none, how many it ignored is counted, so an
empty run says why. Symlinks are never followed. Files graphmem cannot index are
counted with a reason.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from graphmem.anchors.languages import language_for_path, load_language

MAX_FILE_BYTES = 1_000_000
_VCS_DIRS = frozenset({".git", ".hg", ".svn"})


@dataclass(frozen=True)
class SourceFile:
    """A file to index: its root-relative POSIX path and language."""

    path: str
    lang: str


@dataclass
class Listing:
    """The files to index, the ones that failed a check, and what was ignored."""

    files: list[SourceFile] = field(default_factory=list)
    failures: dict[str, tuple[str, str]] = field(default_factory=dict)
    """path → (lang, reason) for supported files that cannot be indexed."""
    ignored: Counter[str] = field(default_factory=Counter)
    """reason → count for files that are not code graphmem indexes."""
    git_ignored: int = 0
    """When git listed nothing under the root: how many files it ignores there."""


IGNORED_BY_GIT = "ignored by git"


def _git(root: Path, *args: str) -> list[str]:
    listed = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=True)
    return [p for p in listed.stdout.decode("utf-8", "surrogateescape").split("\0") if p]


def _in_work_tree(root: Path) -> bool:
    try:
        inside = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--is-inside-work-tree"],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return False
    return inside.returncode == 0 and inside.stdout.strip() == "true"


def _walked_paths(root: Path, ignored: Counter[str]) -> list[str]:
    paths: list[str] = []
    for directory, dirnames, filenames in os.walk(root, followlinks=False):
        for name in list(dirnames):
            if name in _VCS_DIRS:
                dirnames.remove(name)
            elif os.path.islink(os.path.join(directory, name)):
                ignored["symlink"] += 1
        relative = Path(directory).relative_to(root).as_posix()  # once per directory
        prefix = "" if relative == "." else f"{relative}/"
        paths.extend(prefix + name for name in filenames)
    return sorted(paths)


def _symlink_reason(root: Path, full: Path) -> str:
    target = Path(os.path.realpath(full))
    try:
        target.relative_to(root)
    except ValueError:
        return "symlink out of root"
    return "symlink"


def list_sources(root: Path, *, include_ignored: bool = False) -> Listing:
    """Lists what to index under ``root`` (a directory), with reasons for the rest.

    Args:
        root: The directory.
        include_ignored: Walk it even inside a git work tree, with what git ignores.
    """
    root = Path(os.path.realpath(root))
    listing = Listing()
    if include_ignored or not _in_work_tree(root):
        paths = _walked_paths(root, listing.ignored)
    else:
        paths = sorted(
            set(_git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"))
        )
        if not paths:
            ignored = _git(root, "ls-files", "-z", "--others", "--ignored", "--exclude-standard")
            listing.git_ignored = len(ignored)
            listing.ignored[IGNORED_BY_GIT] += len(ignored)
    for path in paths:
        full = root / PurePosixPath(path)
        try:  # one lstat per file: the symlink check and the size come from it
            info: os.stat_result | OSError = os.lstat(full)
        except OSError as error:
            info = error
        if isinstance(info, os.stat_result) and stat.S_ISLNK(info.st_mode):
            listing.ignored[_symlink_reason(root, full)] += 1
            continue
        spec = language_for_path(path)
        if spec is None:
            listing.ignored["unsupported language"] += 1
            continue
        if load_language(spec.name) is None:
            listing.ignored[f"{spec.name} grammar not installed"] += 1
            continue
        if isinstance(info, FileNotFoundError):
            continue  # listed by git but deleted from the work tree: gone
        if isinstance(info, OSError):
            listing.failures[path] = (spec.name, f"unreadable: {info.strerror}")
            continue
        if not stat.S_ISREG(info.st_mode):
            listing.failures[path] = (spec.name, "unreadable: not a regular file")
        elif info.st_size > MAX_FILE_BYTES:
            listing.failures[path] = (spec.name, "too large (over 1 MB)")
        else:
            listing.files.append(SourceFile(path, spec.name))
    return listing
