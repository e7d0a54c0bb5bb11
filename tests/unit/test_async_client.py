"""AsyncGraphMem offers every public GraphMem method as a coroutine function."""

from __future__ import annotations

import inspect

from graphmem import AsyncGraphMem, GraphMem

SYNC_ONLY = {"close"}


def _public_methods(cls: type) -> set[str]:
    return {
        name for name, value in vars(cls).items() if not name.startswith("_") and callable(value)
    }


def test_every_public_method_is_awaitable() -> None:
    wanted = _public_methods(GraphMem) - SYNC_ONLY
    offered = {
        name for name in wanted if inspect.iscoroutinefunction(getattr(AsyncGraphMem, name, None))
    }
    assert offered == wanted
    assert inspect.iscoroutinefunction(AsyncGraphMem.aclose)


def test_awaitables_keep_the_client_docs() -> None:
    assert AsyncGraphMem.recall.__doc__ == GraphMem.recall.__doc__
    assert AsyncGraphMem.recall.__name__ == "recall"
