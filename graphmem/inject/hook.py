"""A hook event's answer: the context graphmem adds, in the host's own contract.

Behind ``POST /hooks/<host>`` (:mod:`graphmem.serve.hooks`), after the event is
captured: a SessionStart gets the project brief, a prompt its recall, a shell
command about to run its recorded dead ends and fixes (docs/capture.md#injection).
Where the host takes no context on that event, the context waits in the session's
ledger for its next event that takes some. Anything that fails here answers "nothing
to add": the event is captured already, and the host is never kept waiting on memory.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

from graphmem.capture.event import EventKind, HookEvent
from graphmem.capture.handler import Captured
from graphmem.capture.hosts import HostAdapter
from graphmem.client import GraphMem
from graphmem.inject import ledger
from graphmem.inject.ledger import Given
from graphmem.models import Injection
from graphmem.settings import InjectionSettings
from graphmem.trust.sensitivity import Sensitivity

_KIND = {
    EventKind.SESSION_START: "session_start",
    EventKind.PROMPT: "prompt",
    EventKind.PRE_TOOL: "pre_tool",
}
"""The kind of injection each event makes (the ledger keeps each kind's ids apart)."""


class Injector:
    """Answers hook events with context for one server's principals.

    Args:
        client_for: The client of a principal.
        settings: Budgets, and whether to inject at all.
        ceiling: The most sensitive level injected.
    """

    def __init__(
        self,
        client_for: Callable[[str], GraphMem],
        settings: InjectionSettings,
        ceiling: Sensitivity = Sensitivity.CONFIDENTIAL,
    ) -> None:
        self._client_for = client_for
        self._settings = settings
        self._ceiling = ceiling
        self._locks: dict[Path, threading.Lock] = {}
        self._locks_lock = threading.Lock()

    def answer(self, principal: str, adapter: HostAdapter, captured: Captured) -> str:
        """What to send the host for a captured event (its "nothing to add" when nothing).

        Raises:
            GraphMemError: Memory could not be read (the caller answers "nothing to add").
        """
        event = captured.event
        empty = adapter.empty_output(event.host_event)
        if not self._settings.enabled or captured.written is None:
            return empty
        with self._lock(captured.spool_file):
            given = ledger.read(captured.spool_file)
            if event.kind is EventKind.SESSION_START:
                given = Given()  # a new, cleared or compacted context holds none of it
            injection = self._inject(self._client_for(principal), event, captured.project, given)
            text = "\n".join(t for t in (given.pending, injection.text if injection else "") if t)
            if not text:
                return empty
            output = adapter.context_output(event.host_event, text)
            if injection is not None:
                given.ids.setdefault(_KIND[event.kind], []).extend(injection.item_ids)
            given.pending = "" if output is not None else text
            ledger.write(captured.spool_file, given)
        return empty if output is None else json.dumps(output, ensure_ascii=False)

    def _inject(
        self, client: GraphMem, event: HookEvent, project: str, given: Given
    ) -> Injection | None:
        """The injection the event calls for, or None when it calls for none."""
        session, ceiling = event.session_id, self._ceiling
        exclude = given.ids.get(_KIND.get(event.kind, ""), [])
        if event.kind is EventKind.SESSION_START:
            return client.brief(
                project,
                session_id=session,
                tokens=self._settings.brief_tokens,
                exclude=exclude,
                ceiling=ceiling,
            )
        if event.kind is EventKind.PROMPT and event.prompt and event.prompt.strip():
            return client.inject_for_prompt(
                event.prompt,
                project=project,
                session_id=session,
                tokens=self._settings.prompt_tokens,
                exclude=exclude,
                ceiling=ceiling,
            )
        if event.kind is EventKind.PRE_TOOL and event.command and event.command.strip():
            return client.inject_for_command(
                event.command, project=project, session_id=session, exclude=exclude, ceiling=ceiling
            )
        return None

    def _lock(self, spool_file: Path) -> threading.Lock:
        with self._locks_lock:
            return self._locks.setdefault(spool_file, threading.Lock())
