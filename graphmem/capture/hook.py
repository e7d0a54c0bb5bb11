"""``graphmem hook <host>``: one hook event on stdin, captured; never a harm to the host.

The agent host runs this once per event. Whatever happens inside (an empty, truncated
or non-JSON payload, an unknown host or event, no data directory, a full disk, a
server that does not answer) it exits 0 within :data:`BUDGET_SECONDS` and prints only
what the host reads as "nothing to add"; a failure is logged to ``hooks.log`` in the
data directory (its kind, never the payload) for ``graphmem sessions`` to count. It
never exits 2, the one code that blocks the host.

With ``GRAPHMEM_HOOK_URL`` set (a running ``graphmem serve``), the payload is posted
to ``<url>/hooks/<host>`` with the token in ``GRAPHMEM_HOOK_TOKEN_FILE``; otherwise, or
when that fails, it is appended to the spool here. Standard library and graphmem's pure
modules only: the Neo4j driver, pydantic and the embedder are never imported.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType

from graphmem import limits
from graphmem.capture.handler import capture
from graphmem.capture.hosts import HostAdapter
from graphmem.capture.hosts import adapter as host_adapter
from graphmem.settings import (
    PRIVATE_FILE_MODE,
    make_private_dir,
    resolve_data_dir,
    resolve_principal,
)

BUDGET_SECONDS = 1.0
"""The most a hook takes, whatever fails (Claude Code's SessionEnd hooks share 1.5 s)."""

MAX_PAYLOAD_BYTES = 16 * 1024 * 1024
"""The largest payload read; a larger one is refused (logged, nothing stored)."""

LOG_FILE = "hooks.log"
"""Where failures are logged, one JSON line each, under the data directory."""


class _OutOfTime(Exception):
    """The budget ran out."""


def main(argv: list[str]) -> int:
    """Runs the hook for ``argv[0]``'s host; always returns 0."""
    started = time.monotonic()
    host = argv[0] if argv else ""
    adapter: HostAdapter | None = None
    event_name = ""
    previous = signal.signal(signal.SIGALRM, _out_of_time)
    signal.setitimer(signal.ITIMER_REAL, BUDGET_SECONDS)
    try:
        adapter = host_adapter(host)
        payload = limits.loads(sys.stdin.buffer.read(MAX_PAYLOAD_BYTES + 1), "payload")
        if not isinstance(payload, dict):
            raise ValueError("payload: a hook event is a JSON object")
        event_name = str(payload.get("hook_event_name", ""))[:100]
        _deliver(host, adapter, payload)
    except BaseException as error:  # the host must never see a failure of ours
        _log_failure(host, event_name, error, time.monotonic() - started)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    _answer(adapter, event_name)
    return 0


def _out_of_time(signum: int, frame: FrameType | None) -> None:
    raise _OutOfTime(f"over the {BUDGET_SECONDS} s budget")


def _deliver(host: str, adapter: HostAdapter, payload: dict[str, object]) -> None:
    """Forwards to the configured server, or appends to the spool here."""
    url = os.environ.get("GRAPHMEM_HOOK_URL")
    if url and _forwarded(url, host, payload):
        return
    capture(resolve_data_dir(), resolve_principal(), adapter, payload)


def _forwarded(url: str, host: str, payload: dict[str, object]) -> bool:
    """Whether ``graphmem serve`` took the event (False: capture it here instead)."""
    token_file = os.environ.get("GRAPHMEM_HOOK_TOKEN_FILE")
    if not token_file:
        return False
    import urllib.request  # only on this path: 28 ms of imports the spool path never needs

    token = Path(token_file).read_text(encoding="utf-8").strip()
    request = urllib.request.Request(
        f"{url.rstrip('/')}/hooks/{host}",
        data=json.dumps(payload).encode("utf-8"),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=BUDGET_SECONDS / 2) as response:
            return 200 <= int(response.status) < 300
    except OSError:
        return False


def _answer(adapter: HostAdapter | None, event_name: str) -> None:
    """Prints what the host reads as "nothing to add" (nothing when unsure)."""
    try:
        text = adapter.empty_output(event_name) if adapter is not None else ""
        sys.stdout.write(text)
        sys.stdout.flush()
    except BaseException:  # a closed stdout is the host's business, not a failure
        return


def _log_failure(host: str, event_name: str, error: BaseException, seconds: float) -> None:
    """One JSON line in ``hooks.log``: when, where, what kind of failure (no payload)."""
    try:
        data_dir = make_private_dir(resolve_data_dir())
        line = json.dumps(
            {
                "at": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "host": host[:50],
                "event": event_name,
                "error": type(error).__name__,
                "message": str(error)[:300],
                "ms": round(seconds * 1000, 1),
            },
            ensure_ascii=True,
        )
        descriptor = os.open(
            data_dir / LOG_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, PRIVATE_FILE_MODE
        )
        try:
            os.write(descriptor, line.encode("ascii") + b"\n")
        finally:
            os.close(descriptor)
    except BaseException:  # nowhere left to report it; the host still gets exit 0
        return
