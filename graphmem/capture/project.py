"""Which project a hook event belongs to, and whether it may be captured.

The project is the name of the git work tree's root directory holding the event's
``cwd``, unless a ``.graphmem.toml`` at that root names it (``project = "billing"``);
``capture = false`` there turns capture off for the project. Standard library only.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from graphmem.limits import NAME_PATTERN

CONFIG_FILE = ".graphmem.toml"
"""The per-project settings file, at the work tree's root."""


@dataclass(frozen=True)
class Project:
    """Where an event happened.

    Attributes:
        name: The project's name (a valid graphmem name).
        root: The work tree's root (the cwd itself outside a git work tree).
        capture: False when the project opted out of capture.
    """

    name: str
    root: Path
    capture: bool


def project_of(cwd: str) -> Project:
    """The project of a hook event run in ``cwd``.

    Raises:
        ValueError: No valid project name can be had (name it in .graphmem.toml), or the
            project's .graphmem.toml cannot be read.
    """
    start = Path(cwd)
    root = next((d for d in (start, *start.parents) if (d / ".git").exists()), start)
    settings: dict[str, object] = {}
    config = root / CONFIG_FILE
    if config.is_file():
        with config.open("rb") as stream:
            settings = tomllib.load(stream)
    name = settings.get("project", _as_name(root.name))
    if not isinstance(name, str) or not re.fullmatch(NAME_PATTERN, name):
        raise ValueError(f"no valid project name for {root}: set project in {config}")
    capture = settings.get("capture", True)
    return Project(name, root, capture is not False)


def _as_name(directory: str) -> str:
    """A directory name as a graphmem name: other characters become ``-``."""
    return re.sub(r"[^A-Za-z0-9._:/@+-]", "-", directory).lstrip("._:/@+-")[:200]
