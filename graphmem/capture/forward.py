"""The hook's fast path: the payload, as read, posted to a running ``graphmem serve``.

The console script (:mod:`graphmem.launcher`) runs :func:`forward` before anything
else of graphmem is imported. The server is ``GRAPHMEM_HOOK_URL`` (``http://HOST:PORT``)
with the token in ``GRAPHMEM_HOOK_TOKEN_FILE``; with no URL set, it is the local server
of the data directory and principal, if one runs (:mod:`graphmem.capture.local_server`).
The payload goes unparsed to ``POST /hooks/HOST`` in one HTTP/1.1 request over a raw
socket; the server reads, redacts and spools it, and answers with the host's output
(the context it adds, or "nothing to add"), which is printed as it came. Only a 2xx
counts as taken. Anything else (no server, a refusal, a timeout, a URL it cannot post
to) hands the payload back for :mod:`graphmem.capture.hook` to capture here, within
what is left of the same budget.

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

from graphmem.capture import local_server

BUDGET_SECONDS = 1.0
"""The most a hook takes, whatever fails (Claude Code's SessionEnd hooks share 1.5 s)."""

CONTEXT_BUDGET_SECONDS = 3.0
"""The most a hook that may add context takes while graphmem's local server comes up
(a session's first events, once): past it, that answer is empty."""

ANSWER_SECONDS = 2.0
"""How long, from the hook's start, a server that was sent the whole event has to answer.
It holds the event by then, so it is not captured again here; a first recall after new
memory (the views catching up) can take most of a second."""

FORWARD_SECONDS = BUDGET_SECONDS / 2
"""The most forwarding takes, so that capturing here still fits in the budget."""

MAX_PAYLOAD_BYTES = 16 * 1024 * 1024
"""The largest payload read; a larger one is refused (logged, nothing stored)."""

NOTHING_TO_ADD = {"claude-code": "", "codex": "", "gemini": "{}", "cursor": "{}"}
"""Per host, what it reads as "nothing to add" (each adapter's ``empty_output`` answers it)."""

_MAX_ANSWER = 64 * 1024
"""The most of a server's answer read (a host caps context at 10,000 characters)."""


class Sent:
    """What the fast path did with one event.

    Attributes:
        started: When the hook started (``time.monotonic``): the budget counts from here.
        taken: Whether the server took the event (nothing is left to do but exit 0).
        payload: The payload as read from stdin (None: not read yet).
        refused: Why a server that answered did not take it (``HTTP 401``), or a
            setting that keeps the event from being forwarded; None when no server
            answered or none was asked.
        silent: Whether a server was sent the whole event and did not answer in time
            (it holds the event: it is not captured again; the failure is logged).
    """

    __slots__ = ("payload", "refused", "silent", "started", "taken")

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
        self.silent = False


class _OutOfTime(Exception):
    """Forwarding's share of the budget ran out while stdin was read."""


def forward(host: str) -> Sent:
    """Posts stdin's payload for ``host`` to the configured or local server, if any.

    Never raises. When the server took the event, its answer is printed; otherwise
    the caller captures the event itself.

    Args:
        host: The agent host named on the command line (``claude-code``).

    Returns:
        Whether the event was taken, and the payload if it was read.
    """
    started = time.monotonic()
    sent = Sent(started)
    target = server(host)
    if target is None:
        return sent
    url, token_file = target
    try:
        sent.payload = _read_stdin(started + FORWARD_SECONDS)
    except BaseException:  # no payload in time: the capture path reads what it can
        return sent
    post(host, sent, url, token_file, started + FORWARD_SECONDS)
    return sent


def server(host: str) -> tuple[str, str] | None:
    """(URL, token file) of the server hook events go to, or None when there is none."""
    if host not in NOTHING_TO_ADD:
        return None
    url = os.environ.get("GRAPHMEM_HOOK_URL")
    if url:
        return url, os.environ.get("GRAPHMEM_HOOK_TOKEN_FILE", "")
    principal = os.environ.get("GRAPHMEM_PRINCIPAL", "").strip()
    if not principal or not local_server.enabled():
        return None
    data = local_server.data_dir()
    running = local_server.running(data, principal)
    if running is None:
        return None
    return running[0], local_server.token_path(data, principal)


def post(host: str, sent: Sent, url: str, token_file: str, deadline: float) -> None:
    """Posts ``sent.payload`` before ``deadline``; prints the answer when it is taken.

    Sets ``sent.taken``, or ``sent.refused`` when a server answered with a refusal or a
    setting cannot work; never raises.
    """
    payload = sent.payload or b""
    if len(payload) > MAX_PAYLOAD_BYTES:
        return  # the capture path refuses it and logs why
    delivered = [False]
    try:
        address, target = _address(url, host)
        token = _token(token_file)
        answer_by = max(deadline, sent.started + ANSWER_SECONDS)
        status, body = _post(address, target, token, payload, deadline, answer_by, delivered)
    except ValueError as error:  # a setting that cannot work: say so in hooks.log
        sent.refused = str(error)
        return
    except BaseException:  # no server in time: capture here, as if none were set
        sent.silent = delivered[0]
        return
    if not 200 <= status < 300:
        sent.refused = f"HTTP {status}"
        return
    sent.taken = True
    print_answer(body.decode("utf-8", "replace"))


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
    address: tuple[int, str, int, str],
    target: bytes,
    token: str,
    body: bytes,
    deadline: float,
    answer_by: float,
    delivered: list[bool],
) -> tuple[int, bytes]:
    """Posts ``body`` before ``deadline``; returns the response's status and body.

    Once the whole request is sent (``delivered[0]`` set), the answer may take until
    ``answer_by``.

    Raises:
        OSError: No connection or no whole request before ``deadline``, or no whole
            answer before ``answer_by``.
        ConnectionError: The answer is no HTTP/1.x response.
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
        delivered[0] = True
        answer = b""
        while len(answer) <= _MAX_ANSWER:
            connection.settimeout(_left(answer_by))
            chunk = connection.recv(_MAX_ANSWER)
            if not chunk:
                break
            answer += chunk
            if _complete(answer):
                break
    finally:
        connection.close()
    return _response(answer)


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("forwarding ran out of its share of the budget")
    return left


def _complete(answer: bytes) -> bool:
    """Whether ``answer`` holds the whole response its Content-Length announces."""
    head, separator, body = answer.partition(b"\r\n\r\n")
    if not separator:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return value.strip().isdigit() and len(body) >= int(value.strip())
    return False


def _response(answer: bytes) -> tuple[int, bytes]:
    """The status code and body of an HTTP/1.x response.

    Raises:
        ConnectionError: The answer is no HTTP/1.x status line (nothing that answers),
            or its body is cut short.
    """
    version, _, rest = answer.partition(b" ")
    code = rest[:3]
    if not version.startswith(b"HTTP/1.") or not code.isdigit():
        raise ConnectionError("no HTTP status line")
    status = int(code)
    if not 200 <= status < 300:
        return status, b""
    if not _complete(answer):
        raise ConnectionError("the answer was cut short")
    return status, answer.partition(b"\r\n\r\n")[2]


def print_answer(text: str) -> None:
    """Prints the host's answer; a closed stdout is the host's business."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BaseException:
        return
