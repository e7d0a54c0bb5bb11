"""The local hook server stops on its own once no request came for a while."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from graphmem.serve.local import _IdleWatch


class _Server:
    should_exit = False


async def _app(scope: Any, receive: Any, send: Any) -> None:
    return None


def test_a_request_restarts_the_idle_clock_and_silence_stops_the_server() -> None:
    watch = _IdleWatch(_app)
    watch.last = time.monotonic() - 10
    asyncio.run(watch({"type": "http"}, None, None))
    assert time.monotonic() - watch.last < 1
    server = _Server()
    watch.last = time.monotonic() - 10
    watch.stop_when_idle(server, 5.0)  # type: ignore[arg-type]
    assert server.should_exit


def test_lifespan_messages_are_not_requests() -> None:
    watch = _IdleWatch(_app)
    watch.last = before = time.monotonic() - 10
    asyncio.run(watch({"type": "lifespan"}, None, None))
    assert watch.last == before
