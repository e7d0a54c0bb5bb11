"""The local hook server of a data directory: where it listens, its token, its start.

With no ``GRAPHMEM_HOOK_URL`` set, ``graphmem hook HOST`` uses a ``graphmem serve
--local`` of its own, for the data directory and principal of its environment
(docs/capture.md#injection). The server writes two files under
``<data dir>/hooks/<principal>/`` (0700 directory, 0600 files):

- ``token``: a random bearer token for this principal, made by the first one who needs
  it (hook or server) and kept; only the local server accepts it;
- ``server``: one line, ``http://127.0.0.1:PORT PID``, written once the server answers
  and its recall engine is warm, removed when it stops.

A hook that finds no live server starts one in the background (:func:`start`); a
``starting`` file keeps two hooks from starting two. ``GRAPHMEM_HOOK_LOCAL=off`` keeps
hooks from using or starting one (capture alone, no context). Only :mod:`os` at import: this
module is read on the hook's hot path (:mod:`graphmem.capture.forward`).
"""

from __future__ import annotations

import os

HOOKS_DIR = "hooks"
"""The local servers' directory under the data directory."""

STARTING_SECONDS = 30.0
"""How long a ``starting`` mark keeps another hook from starting a second server."""


def enabled() -> bool:
    """Whether hooks may use and start a local server (``GRAPHMEM_HOOK_LOCAL=off``: no)."""
    return os.environ.get("GRAPHMEM_HOOK_LOCAL", "on").strip().lower() not in ("off", "0", "false")


def data_dir() -> str:
    """The data directory, as :func:`graphmem.settings.resolve_data_dir` finds it."""
    explicit = os.environ.get("GRAPHMEM_DATA_DIR", "").strip()
    if explicit:
        return os.path.expanduser(explicit)
    xdg = os.environ.get("XDG_DATA_HOME", "").strip()
    base = (
        os.path.expanduser(xdg) if xdg else os.path.join(os.path.expanduser("~"), ".local", "share")
    )
    return os.path.join(base, "graphmem")


def directory(data: str, principal: str) -> str:
    """``<data>/hooks/<principal>``: the local server's files for one principal."""
    return os.path.join(data, HOOKS_DIR, principal)


def token_path(data: str, principal: str) -> str:
    """The local server's token file."""
    return os.path.join(directory(data, principal), "token")


def server_path(data: str, principal: str) -> str:
    """The file that says where the running local server listens."""
    return os.path.join(directory(data, principal), "server")


def starting_path(data: str, principal: str) -> str:
    """The mark a hook leaves while the server it started comes up."""
    return os.path.join(directory(data, principal), "starting")


def running(data: str, principal: str) -> tuple[str, int] | None:
    """(URL, pid) of the running local server, or None when none is recorded alive."""
    try:
        with open(server_path(data, principal), "rb") as stream:
            url_text, _, pid_text = stream.read(300).decode("ascii").strip().partition(" ")
        pid = int(pid_text)
        os.kill(pid, 0)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return (url_text, pid) if url_text.startswith("http://") else None


def starting(data: str, principal: str, now: float) -> bool:
    """Whether a hook started a server less than :data:`STARTING_SECONDS` ago."""
    try:
        return now - os.stat(starting_path(data, principal)).st_mtime < STARTING_SECONDS
    except OSError:
        return False


def ensure_token(data: str, principal: str) -> str:
    """The local token, made (0600, 32 random bytes as hex) when there is none yet."""
    path = token_path(data, principal)
    _private_dirs(data, principal)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        with open(path, encoding="ascii") as stream:
            return stream.read().strip()
    token = os.urandom(32).hex()
    try:
        os.write(descriptor, token.encode("ascii"))
    finally:
        os.close(descriptor)
    return token


def start(data: str, principal: str, now: float) -> bool:
    """Starts ``graphmem serve --local`` detached, unless one runs or is starting.

    The child inherits this environment (how to reach Neo4j) with the data directory
    and principal made explicit.

    Returns:
        Whether a server was started by this call.
    """
    if running(data, principal) is not None or starting(data, principal, now):
        return False
    _private_dirs(data, principal)
    mark = starting_path(data, principal)
    try:
        descriptor = os.open(mark, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.close(descriptor)
        os.utime(mark, (now, now))
    except OSError:
        return False
    import subprocess  # only when a server has to be started
    import sys

    environment = {**os.environ, "GRAPHMEM_DATA_DIR": data, "GRAPHMEM_PRINCIPAL": principal}
    log = os.open(
        os.path.join(directory(data, principal), "server.log"),
        os.O_WRONLY | os.O_CREAT | os.O_APPEND,
        0o600,
    )
    try:
        subprocess.Popen(
            [sys.executable, "-m", "graphmem", "serve", "--local"],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            env=environment,
            start_new_session=True,
            close_fds=True,
        )
    finally:
        os.close(log)
    return True


def _private_dirs(data: str, principal: str) -> None:
    for path in (data, os.path.join(data, HOOKS_DIR), directory(data, principal)):
        if not os.path.isdir(path):
            os.makedirs(path, mode=0o700, exist_ok=True)
            os.chmod(path, 0o700)
