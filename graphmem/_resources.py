"""Locates graphmem's data directories (queries/, extractors/, docker/).

They live at the top of the source tree and are force-included into the wheel under
``graphmem/_data``; an installed graphmem finds the packaged copy, an editable install
the source tree.
"""

from __future__ import annotations

from pathlib import Path

from graphmem.errors import ConfigError

_PACKAGE = Path(__file__).resolve().parent


def data_path(name: str) -> Path:
    """Returns the directory holding graphmem's ``name`` data (e.g. ``"queries"``).

    Raises:
        ConfigError: The installation is incomplete.
    """
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise ConfigError(
        f"graphmem's {name}/ data directory is missing from this installation; reinstall "
        "graphmem (pip install --force-reinstall graphmem).",
        field=name,
        rule="installed",
    )
