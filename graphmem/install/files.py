"""Reading and writing a host's settings file.

A private backup first, then an atomic replace that keeps the file's mode.
"""

from __future__ import annotations

import difflib
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from graphmem.install.errors import SettingsFileError

BACKUP_INFIX = ".graphmem-backup-"
"""Backups are ``<file>.graphmem-backup-<UTC time>``, beside the file."""


def read(path: Path) -> str | None:
    """The file's text, None when it does not exist.

    Raises:
        SettingsFileError: It cannot be read, or is not UTF-8.
    """
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as error:
        raise SettingsFileError(path, f"not UTF-8 text ({error.reason})") from None
    except OSError as error:
        raise SettingsFileError(path, f"cannot be read ({error.strerror})") from None


def backup(path: Path, now: datetime | None = None) -> Path:
    """Copies ``path`` to a new timestamped backup beside it, mode 0600.

    Returns:
        The backup's path.
    """
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S.%fZ")
    target = path.with_name(path.name + BACKUP_INFIX + stamp)
    data = path.read_bytes()
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as stream:
        stream.write(data)
    return target


def write(path: Path, text: str) -> None:
    """Replaces ``path`` with ``text`` atomically, making missing directories.

    A new file is 0600; an old one keeps its mode.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o600
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(text.encode("utf-8"))
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def unified_diff(path: Path, before: str | None, after: str | None) -> str:
    """The change as a unified diff (``/dev/null`` for an absent side)."""
    lines = difflib.unified_diff(
        (before or "").splitlines(keepends=True),
        (after or "").splitlines(keepends=True),
        fromfile=str(path) if before is not None else "/dev/null",
        tofile=str(path) if after is not None else "/dev/null",
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )
