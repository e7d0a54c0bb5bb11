"""The command line an agent host runs.

The absolute graphmem console script, and the settings pinned from the installing
environment (never a password or a token).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from graphmem.errors import ConfigError

PINNED = ("GRAPHMEM_DATA_DIR", "GRAPHMEM_PRINCIPAL")
"""Settings of the installing environment written into the host's command."""

FORWARD_PINNED = ("GRAPHMEM_HOOK_URL", "GRAPHMEM_HOOK_TOKEN_FILE")
"""Also pinned for a host whose hooks forward to a server (paths and URLs, no secret)."""


@dataclass(frozen=True)
class Launch:
    """How the host starts graphmem.

    Attributes:
        executable: The console script's absolute path.
        env: The pinned settings, in a fixed order.
    """

    executable: str
    env: tuple[tuple[str, str], ...]

    def command(self, *args: str) -> str:
        """A shell command line: ``NAME=value ... /abs/graphmem ARGS`` (shell-quoted)."""
        words = [f"{name}={shlex.quote(value)}" for name, value in self.env]
        words.append(shlex.quote(self.executable))
        words.extend(shlex.quote(arg) for arg in args)
        return " ".join(words)


def console_script() -> str:
    """The absolute path of the graphmem console script of this installation.

    The one beside the running interpreter (a virtual environment's ``bin``) first, then
    the one on PATH.

    Raises:
        ConfigError: Neither exists.
    """
    beside = Path(sys.executable).parent / "graphmem"
    if beside.is_file() and os.access(beside, os.X_OK):
        return os.path.abspath(beside)
    found = shutil.which("graphmem")
    if found is None:
        raise ConfigError(
            "cannot find the graphmem console script beside this Python or on PATH: "
            "install graphmem with pip (or pipx) first",
            rule="console_script",
        )
    return os.path.abspath(found)


def launch(forward_url: str | None = None) -> Launch:
    """The console script and the settings to pin, from this environment.

    Args:
        forward_url: The server a host's command hooks forward to (``--http`` for a host
            without http hooks); pinned as ``GRAPHMEM_HOOK_URL``.
    """
    env = [(name, os.environ[name]) for name in PINNED if os.environ.get(name)]
    if forward_url is not None:
        env.append(("GRAPHMEM_HOOK_URL", forward_url))
        token_file = os.environ.get("GRAPHMEM_HOOK_TOKEN_FILE")
        if token_file:
            env.append(("GRAPHMEM_HOOK_TOKEN_FILE", os.path.abspath(token_file)))
    return Launch(console_script(), tuple(env))


def split_command(command: str) -> tuple[dict[str, str], list[str]]:
    """A command line's leading ``NAME=value`` settings, and the rest of its words.

    Returns:
        The settings and the words; no words when it cannot be split (bad quoting).
    """
    try:
        words = shlex.split(command)
    except ValueError:
        return {}, []
    env: dict[str, str] = {}
    while words and "=" in words[0] and words[0].split("=", 1)[0].isidentifier():
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    return env, words
