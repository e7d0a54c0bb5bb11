"""The errors of installing into a host's settings files."""

from __future__ import annotations

from pathlib import Path

from graphmem.errors import ConfigError


class SettingsFileError(ConfigError):
    """A host's settings file graphmem cannot edit safely; nothing was changed.

    ``details`` name the ``path`` and, for a syntax error, its ``line`` and ``column``.
    """

    def __init__(
        self, path: Path, reason: str, *, line: int | None = None, column: int | None = None
    ) -> None:
        where = f"{path}, line {line}" if line is not None else str(path)
        super().__init__(
            f"{where}: {reason}; nothing was changed (fix the file, or move it aside)",
            path=str(path),
            line=line,
            column=column,
            rule="settings_file",
        )
        self.path = path
        self.line = line
