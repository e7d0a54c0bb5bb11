"""The hook's fast path: the payload, as read, posted to a running ``graphmem serve``.

The console script (:mod:`graphmem.launcher`) runs :func:`forward` before anything
else of graphmem is imported. With ``GRAPHMEM_HOOK_URL`` (``http://HOST:PORT``) and
``GRAPHMEM_HOOK_TOKEN_FILE`` set, the payload goes unparsed to ``POST /hooks/HOST`` in
one HTTP/1.1 request over a raw socket; the server reads, redacts and spools it. Only
a 2xx status line counts as taken. Anything else (no server, a refusal, a timeout, a
URL it cannot post to) hands the payload back for :mod:`graphmem.capture.hook` to
capture here, within what is left of the same budget.

Only modules already loaded at interpreter start, plus ``_socket`` and ``signal``:
``socket``, ``urllib``, ``json`` and ``typing`` cost more than the bare interpreter
start this path is measured against (``graphmem bench hooks``).
"""

from __future__ import annotations

import _socket
import os
import signal
import sys
import time
from types import FrameType

BUDGET_SECONDS = 1.0
"""The most a hook takes, whatever fails (Claude Code's SessionEnd hooks share 1.5 s)."""

FORWARD_SECONDS = BUDGET_SECONDS / 2
"""The most forwarding takes, so that capturing here still fits in the budget."""

MAX_PAYLOAD_BYTES = 16 * 1024 * 1024
"""The largest payload read; a larger one is refused (logged, nothing stored)."""

NOTHING_TO_ADD = {"claude-code": "", "codex": "", "gemini": "{}", "cursor": "{}"}
"""Per host, what it reads as "nothing to add" (each adapter's ``empty_output`` answers it)."""

_MAX_STATUS_LINE = 1024


class Sent:
    """What the fast path did with one event.

    Attributes:
        started: When the hook started (``time.monotonic``): the budget counts from here.
        taken: Whether the server took the event (nothing is left to do but exit 0).
        payload: The payload as read from stdin (None: not read yet).
        refused: Why a server that answered did not take it (``HTTP 401``), or a
            setting that keeps the event from being forwarded; None when no server
            answered or none was asked.
    """

    __slots__ = ("payload", "refused", "started", "taken")

    def __init__(
        self,
        started: float,
        taken: bool = False,
        payload: bytes | None = None,
        refused: str | None = None,
    ) -> None:
        self.started = started
        self.taken = taken
        self.payload = payload
        self.refused = refused


class _OutOfTime(Exception):
    """Forwarding's share of the budget ran out while stdin was read."""


def forward(host: str) -> Sent:
    """Posts stdin's payload for ``host`` to ``GRAPHMEM_HOOK_URL``, if one is set.

    Never raises. When the server took the event, the host's "nothing to add" is
    printed; otherwise the caller captures the event itself.

    Args:
        host: The agent host named on the command line (``claude-code``).

    Returns:
        Whether the event was taken, and the payload if it was read.
    """
    started = time.monotonic()
    url = os.environ.get("GRAPHMEM_HOOK_URL")
    token_file = os.environ.get("GRAPHMEM_HOOK_TOKEN_FILE")
    if not url or not token_file or host not in NOTHING_TO_ADD:
        return Sent(started)
    sent = Sent(started)
    try:
        sent.payload = _read_stdin(started + FORWARD_SECONDS)
        if len(sent.payload) > MAX_PAYLOAD_BYTES:
            return sent  # the capture path refuses it and logs why
        address, target = _address(url, host)
        token = _token(token_file)
        status = _post(address, target, token, sent.payload, started + FORWARD_SECONDS)
    except ValueError as error:  # a setting that cannot work: say so in hooks.log
        sent.refused = str(error)
        return sent
    except BaseException:  # no answer in time: capture here, as if no server were set
        return sent
    if not 200 <= status < 300:
        sent.refused = f"HTTP {status}"
        return sent
    sent.taken = True
    print_answer(NOTHING_TO_ADD[host])
    return sent


def _read_stdin(deadline: float) -> bytes:
    """Stdin, at most one byte past the payload limit, read before ``deadline``."""

    def out_of_time(signum: int, frame: FrameType | None) -> None:
        raise _OutOfTime

    previous = signal.signal(signal.SIGALRM, out_of_time)
    signal.setitimer(signal.ITIMER_REAL, max(deadline - time.monotonic(), 0.001))
    try:
        return sys.stdin.buffer.read(MAX_PAYLOAD_BYTES + 1)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _address(url: str, host: str) -> tuple[tuple[int, str, int, str], bytes]:
    """(family, name, port, Host header) and the request target, from the server's URL.

    Raises:
        ValueError: The URL is not ``http://NAME[:PORT][/PREFIX]``.
    """
    scheme, separator, rest = url.partition("://")
    if scheme != "http" or not separator:
        raise ValueError("GRAPHMEM_HOOK_URL: only http:// URLs are forwarded")
    authority, _, prefix = rest.partition("/")
    family = _socket.AF_INET
    if authority.startswith("["):  # [::1]:8765
        name, _, port_text = authority[1:].partition("]")
        port_text = port_text.removeprefix(":")
        family = _socket.AF_INET6
    else:
        name, _, port_text = authority.partition(":")
    if not name or not (port_text or "80").isdigit() or not authority.isprintable():
        raise ValueError("GRAPHMEM_HOOK_URL: no host and port to post to")
    path = "/" + prefix.strip("/") + "/hooks/" + host if prefix.strip("/") else "/hooks/" + host
    return (family, name, int(port_text or "80"), authority), path.encode("ascii")


def _token(path: str) -> str:
    """The bearer token in the token file.

    Raises:
        ValueError: The file cannot be read or holds no usable token.
    """
    try:
        with open(path, "rb") as stream:
            token = stream.read(4096).strip().decode("ascii")
    except (OSError, UnicodeDecodeError):
        raise ValueError("GRAPHMEM_HOOK_TOKEN_FILE: cannot be read as a token") from None
    if not token or not token.isprintable() or " " in token:
        raise ValueError("GRAPHMEM_HOOK_TOKEN_FILE: holds no token")
    return token


def _post(
    address: tuple[int, str, int, str], target: bytes, token: str, body: bytes, deadline: float
) -> int:
    """Posts ``body`` and returns the response's status, or raises past ``deadline``.

    Raises:
        OSError: No connection, or no status line in time.
    """
    family, name, port, authority = address
    head = (
        b"POST " + target + b" HTTP/1.1\r\n"
        b"Host: " + authority.encode("ascii") + b"\r\n"
        b"Authorization: Bearer " + token.encode("ascii") + b"\r\n"
        b"Content-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode("ascii") + b"\r\n"
        b"Connection: close\r\n\r\n"
    )
    connection = _socket.socket(family, _socket.SOCK_STREAM)
    try:
        connection.setsockopt(_socket.IPPROTO_TCP, _socket.TCP_NODELAY, 1)
        connection.settimeout(_left(deadline))
        connection.connect((name, port))
        connection.sendall(head + body)
        answer = b""
        while b"\r\n" not in answer and len(answer) < _MAX_STATUS_LINE:
            connection.settimeout(_left(deadline))
            chunk = connection.recv(_MAX_STATUS_LINE)
            if not chunk:
                break
            answer += chunk
    finally:
        connection.close()
    return _status(answer)


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("forwarding ran out of its share of the budget")
    return left


def _status(answer: bytes) -> int:
    """The status code of an HTTP/1.x status line.

    Raises:
        ConnectionError: The answer is no HTTP/1.x status line (nothing that answers).
    """
    version, _, rest = answer.partition(b" ")
    code = rest[:3]
    if not version.startswith(b"HTTP/1.") or not code.isdigit():
        raise ConnectionError("no HTTP status line")
    return int(code)


def print_answer(text: str) -> None:
    """Prints the host's answer; a closed stdout is the host's business."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BaseException:
        return
