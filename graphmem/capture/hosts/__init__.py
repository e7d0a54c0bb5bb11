"""One adapter per agent host: its payload in, a HookEvent out (standard library only).

Each adapter module exposes ``HOST``, ``read_event``, ``context_output`` and
``empty_output`` (:class:`HostAdapter`); :data:`ADAPTERS` maps the host names to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from graphmem.capture.event import HookEvent
from graphmem.capture.hosts import claude_code, codex, cursor, gemini


class HostAdapter(Protocol):
    """What every host adapter module provides."""

    HOST: str

    def read_event(self, payload: Mapping[str, object]) -> HookEvent:
        """The event a payload describes (raises PayloadError when it cannot)."""
        ...

    def context_output(self, event_name: str, context: str) -> dict[str, object] | None:
        """The JSON that adds context on this event, None where the host takes none."""
        ...

    def empty_output(self, event_name: str) -> str:
        """What to print when graphmem has nothing to say."""
        ...


ADAPTERS: dict[str, HostAdapter] = {
    claude_code.HOST: claude_code,
    codex.HOST: codex,
    gemini.HOST: gemini,
    cursor.HOST: cursor,
}
"""Every host adapter, by host name."""


def adapter(host: str) -> HostAdapter:
    """The adapter for ``host``.

    Args:
        host: A host name (``claude-code``, ``codex``, ``gemini``, ``cursor``).

    Returns:
        Its adapter module.

    Raises:
        KeyError: No adapter has that name; the message lists the known ones.
    """
    try:
        return ADAPTERS[host]
    except KeyError:
        raise KeyError(f"no host adapter {host!r}; known: {', '.join(sorted(ADAPTERS))}") from None
