"""``graphmem hook <host>``: one hook event on stdin, captured; never a harm to the host.

The agent host runs this once per event. Whatever happens inside (an empty, truncated
or non-JSON payload, an unknown host or event, no data directory, a full disk, a
server that does not answer) it exits 0 within :data:`BUDGET_SECONDS` and prints only
what the host reads as "nothing to add"; a failure is logged to ``hooks.log`` in the
data directory (its kind, never the payload) for ``graphmem sessions`` to count. It
never exits 2, the one code that blocks the host.

With ``GRAPHMEM_HOOK_URL`` set (a running ``graphmem serve``), the console script has
already tried to post the payload to ``<url>/hooks/<host>``
(:mod:`graphmem.capture.forward`); this module captures what that did not deliver,
appending it to the spool here within what is left of the same budget. A server that
answered with a refusal is logged; one that did not answer is not (the event is still
captured), and one that was sent the whole event and fell silent is logged and not
captured again (it holds the event). Standard library and graphmem's pure modules only:
the Neo4j driver, pydantic and the embedder are never imported.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from datetime import UTC, datetime
from types import FrameType

from graphmem import limits
from graphmem.capture import local_server
from graphmem.capture.event import EventKind
from graphmem.capture.forward import (
    ANSWER_SECONDS,
    BUDGET_SECONDS,
    CONTEXT_BUDGET_SECONDS,
    MAX_PAYLOAD_BYTES,
    NOTHING_TO_ADD,
    Sent,
    post,
    print_answer,
)
from graphmem.capture.handler import capture
from graphmem.capture.hosts import HostAdapter
from graphmem.capture.hosts import adapter as host_adapter
from graphmem.settings import (
    PRIVATE_FILE_MODE,
    make_private_dir,
    resolve_data_dir,
    resolve_principal,
)

_CONTEXT_KINDS = frozenset({EventKind.SESSION_START, EventKind.PROMPT, EventKind.PRE_TOOL})
"""Events a hook may answer with context."""

CAPTURE_RESERVE_SECONDS = 0.3
"""What a wait for the local server leaves of the budget, to capture the event here."""

_POLL_SECONDS = 0.02

LOG_FILE = "hooks.log"
"""Where failures are logged, one JSON line each, under the data directory."""


class _OutOfTime(Exception):
    """The budget ran out."""


class ServerSilent(Exception):
    """The hook server was sent the whole event and did not answer in time.

    It holds the event, so it is not captured again here; logged, answered "nothing to add".
    """


class ForwardRefused(Exception):
    """``GRAPHMEM_HOOK_URL``'s server refused the event, or it cannot be posted there.

    The event is captured here all the same; the refusal is logged so it is seen.
    """


def main(argv: list[str], sent: Sent | None = None) -> int:
    """Runs the hook for ``argv[0]``'s host; always returns 0.

    Args:
        argv: The host's name, as on the command line.
        sent: What the fast path did (:func:`graphmem.capture.forward.forward`): the
            budget's start, the payload if it read it, and a refusal to log. None: the
            hook starts here and reads stdin itself.
    """
    started = sent.started if sent is not None else time.monotonic()
    host = argv[0] if argv else ""
    if sent is not None and sent.silent:  # the server holds the event: not again here
        silent = ServerSilent(f"the hook server did not answer within {ANSWER_SECONDS} s")
        _log_failure(host, "", silent, time.monotonic() - started)
        print_answer(NOTHING_TO_ADD.get(host, ""))
        return 0
    adapter: HostAdapter | None = None
    event_name = ""
    previous = signal.signal(signal.SIGALRM, _out_of_time)
    signal.setitimer(signal.ITIMER_REAL, max(BUDGET_SECONDS - (time.monotonic() - started), 0.001))
    try:
        if sent is not None and sent.refused is not None:
            _log_failure(host, "", ForwardRefused(sent.refused), time.monotonic() - started)
        adapter = host_adapter(host)
        raw = sent.payload if sent is not None else None
        if raw is None:
            raw = sys.stdin.buffer.read(MAX_PAYLOAD_BYTES + 1)
        payload = limits.loads(raw, "payload")
        if not isinstance(payload, dict):
            raise ValueError("payload: a hook event is a JSON object")
        event_name = str(payload.get("hook_event_name", ""))[:100]
        if _through_local_server(host, adapter, payload, raw, started):
            return 0
        capture(resolve_data_dir(), resolve_principal(), adapter, payload)
    except BaseException as error:  # the host must never see a failure of ours
        _log_failure(host, event_name, error, time.monotonic() - started)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    _answer(adapter, event_name)
    return 0


def _through_local_server(
    host: str, adapter: HostAdapter, payload: dict[str, object], raw: bytes, started: float
) -> bool:
    """Starts the local server when none runs; waits for one starting on a context event.

    Only without ``GRAPHMEM_HOOK_URL``. An event that may get context (a session's
    start, a prompt, a tool call about to run) waits for a server that is coming up,
    within :data:`CONTEXT_BUDGET_SECONDS` of the hook's start, and is posted to it once
    it answers; any other event, or one whose wait runs out, is captured here.

    Returns:
        Whether the server took the event (and its answer was printed).
    """
    if os.environ.get("GRAPHMEM_HOOK_URL") or not local_server.enabled():
        return False
    data, principal = str(resolve_data_dir()), resolve_principal()
    local_server.start(data, principal, time.time())
    if adapter.read_event(payload).kind not in _CONTEXT_KINDS:
        return False
    deadline = started + CONTEXT_BUDGET_SECONDS - CAPTURE_RESERVE_SECONDS
    signal.setitimer(
        signal.ITIMER_REAL, max(started + CONTEXT_BUDGET_SECONDS - time.monotonic(), 0.001)
    )
    while time.monotonic() < deadline:
        running = local_server.running(data, principal)
        if running is not None:
            sent = Sent(started, payload=raw)
            post(host, sent, running[0], local_server.token_path(data, principal), deadline)
            if sent.silent:
                raise ServerSilent(f"the local server did not answer within {ANSWER_SECONDS} s")
            return sent.taken
        if not local_server.starting(data, principal, time.time()):
            return False
        time.sleep(_POLL_SECONDS)
    return False


def _out_of_time(signum: int, frame: FrameType | None) -> None:
    raise _OutOfTime(f"over the {BUDGET_SECONDS} s budget")


def _answer(adapter: HostAdapter | None, event_name: str) -> None:
    """Prints what the host reads as "nothing to add" (nothing when unsure)."""
    print_answer(adapter.empty_output(event_name) if adapter is not None else "")


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
