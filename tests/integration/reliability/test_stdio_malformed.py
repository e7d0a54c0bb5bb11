"""`graphmem mcp` answers every line on stdin: a malformed one gets a JSON-RPC error.

Issue 33's first defect: after `initialize`, a request holding a lone surrogate, a
5,000-digit number, 500 levels of nesting, or a line that is not JSON got no reply at
all, and the agent hung until its own timeout. These tests speak raw JSON-RPC over the
real pipes (the SDK's client cannot send a malformed line), one line at a time, and
expect one reply per line within a second, to the line's id when it can be read.
"""

from __future__ import annotations

import json
import os
import random
import select
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

REPLY_WITHIN = 1.0
"""Seconds a malformed line may wait for its answer."""

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "fuzz", "version": "1"},
    },
}


class Wire:
    """`graphmem mcp` as a child process, spoken to line by line."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self._pending = b""

    def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def reply(self, timeout: float) -> dict[str, Any] | None:
        """The next line the server writes, parsed; None if none comes in ``timeout``."""
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.process.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.process.stdout.fileno(), 1 << 20)
            if not chunk:
                return None
            self._pending += chunk
        line, self._pending = self._pending.split(b"\n", 1)
        parsed: dict[str, Any] = json.loads(line)
        return parsed


@pytest.fixture
def wire(neo4j_env: dict[str, str], tmp_path: Path) -> Iterator[Wire]:
    """An initialized `graphmem mcp` (the first call opens the database: a long wait)."""
    (tmp_path / "shop" / ".git").mkdir(parents=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "graphmem", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=tmp_path / "shop",
        env={**os.environ, **neo4j_env},
    )
    talk = Wire(process)
    talk.send(json.dumps(INITIALIZE).encode())
    assert (talk.reply(120) or {}).get("id") == 0
    talk.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
    yield talk
    assert process.stdin is not None
    process.stdin.close()
    assert process.wait(30) == 0


def _call(request_id: int, arguments: str) -> bytes:
    """A tools/call line whose arguments are ``arguments``, written as raw JSON text."""
    head = f'{{"jsonrpc":"2.0","id":{request_id},"method":"tools/call",'
    return f'{head}"params":{{"name":"believe","arguments":{arguments}}}}}'.encode(
        "utf-8", "surrogatepass"
    )


def _works(wire: Wire) -> None:
    """A valid call after the malformed ones is still served."""
    wire.send(_call(9_999, '{"statement":"The wire still works","type":"fact"}'))
    answer = wire.reply(30)
    assert answer is not None and answer.get("id") == 9_999, answer
    assert answer["result"]["isError"] is False, answer


@pytest.mark.parametrize(
    ("line", "field", "rule"),
    [
        pytest.param(_call(1, '{"statement":"\\ud800"}'), "statement", "utf8", id="lone-surrogate"),
        pytest.param(
            _call(1, '{"confidence":' + "9" * 5_000 + "}"),
            "confidence",
            "integer_size",
            id="huge-int",
        ),
        pytest.param(
            _call(1, '{"statement":' + "[" * 500 + "]" * 500 + "}"), "statement", "depth", id="deep"
        ),
        pytest.param(
            _call(1, '{"statement":"X bytes"}').replace(b"X", b"\xff\xfe"),
            "statement",
            "utf8",
            id="invalid-utf8",
        ),
    ],
)
def test_a_malformed_request_is_answered_to_its_id(
    wire: Wire, line: bytes, field: str, rule: str
) -> None:
    wire.send(line)
    answer = wire.reply(REPLY_WITHIN)
    assert answer is not None, "no reply: the agent would hang"
    assert answer["id"] == 1
    assert answer["error"]["code"] == -32602
    assert answer["error"]["data"]["rule"] == rule
    assert answer["error"]["data"]["field"].endswith(field)
    _works(wire)


def test_a_line_that_is_not_json_is_answered_to_null(wire: Wire) -> None:
    wire.send(b"this is not JSON")
    answer = wire.reply(REPLY_WITHIN)
    assert answer == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": -32700,
            "message": "message: not valid JSON (Expecting value at line 1 column 1)",
            "data": {"field": "message", "rule": "json"},
        },
    }
    _works(wire)


_NOT_A_LINE_END = [byte for byte in range(256) if byte != ord("\n")]


def _malformed_lines(rng: random.Random) -> Iterator[tuple[bytes, int | None]]:
    """Endless malformed lines, each with the id its reply must carry."""
    makers: list[Callable[[int], tuple[bytes, int | None]]] = [
        lambda n: (_call(n, '{"statement":"' + f"\\ud8{rng.randrange(256):02x}" + '"}'), n),
        lambda n: (_call(n, '{"limit":' + "7" * rng.randrange(20, 9_000) + "}"), n),
        lambda n: (_call(n, '{"query":-' + "1" * rng.randrange(20, 9_000) + "}"), n),
        lambda n: (_call(n, "[" * (d := rng.randrange(33, 900)) + "]" * d), n),
        lambda n: (_call(n, '{"a":' * (d := rng.randrange(33, 900)) + "0" + "}" * d), n),
        lambda n: (_call(n, '{"statement":"ok \udc80\udcff"}'), n),
        lambda n: (b"[" * rng.randrange(2_000, 100_000), None),
        lambda n: (
            bytes(rng.choice(_NOT_A_LINE_END) for _ in range(rng.randrange(1, 80))) + b"x",
            None,
        ),
        lambda n: (b'{"jsonrpc":"2.0","id":' + str(n).encode() + b',"method":', None),
        lambda n: (b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":NaN}' % n, None),
        lambda n: (b'{"jsonrpc":"1.0","id":%d,"method":"tools/list"}' % n, n),
        lambda n: (b'{"jsonrpc":"2.0","id":%d}' % n, n),
        lambda n: (b'{"jsonrpc":"2.0","id":[%d],"method":"ping"}' % n, None),
        lambda n: (b"[1, 2, 3]", None),
        lambda n: (b'"just a string"', None),
        lambda n: (_call(n, '"not an object"'), n),
    ]
    number = 1
    while True:
        yield rng.choice(makers)(number)
        number += 1


def test_300_malformed_lines_get_300_replies_and_the_server_keeps_serving(wire: Wire) -> None:
    answered = 0
    slowest = 0.0
    for line, expected_id in _take(_malformed_lines(random.Random(33)), 300):
        started = time.monotonic()
        wire.send(line)
        answer = wire.reply(REPLY_WITHIN)
        assert answer is not None, f"no reply within {REPLY_WITHIN} s to {line[:120]!r}"
        slowest = max(slowest, time.monotonic() - started)
        assert answer.get("id") == expected_id, (line[:120], answer)
        assert "error" in answer or answer.get("result", {}).get("isError"), (line[:120], answer)
        answered += 1
    assert answered == 300
    print(f"300 of 300 malformed lines answered; slowest reply {slowest * 1000:.0f} ms")
    _works(wire)


def _take(lines: Iterator[tuple[bytes, int | None]], count: int) -> list[tuple[bytes, int | None]]:
    return [next(lines) for _ in range(count)]
