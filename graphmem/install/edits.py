"""graphmem's entries added to, and taken out of, a host's JSON settings document.

An install adds what is missing and leaves what is already there; an entry of graphmem's
that differs (another console script path, ``--http`` now) is replaced. An uninstall
takes out every handler of graphmem's, and the containers it leaves empty (an event's
list, the hooks object, the MCP servers object), so install-then-uninstall gives the
original text back.
"""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.install.errors import SettingsFileError
from graphmem.install.hosts import MCP_NAME, Host
from graphmem.install.json_edit import JsonDocument
from graphmem.install.jsonc import JsonValue, Node

Step = tuple[Node, int]
"""A container and the index of one of its entries."""


def add_hooks(doc: JsonDocument, host: Host, entries: Sequence[tuple[str, JsonValue]]) -> None:
    """Adds each event's entry that is not there yet (replacing a stale one of graphmem's).

    Args:
        doc: The hooks file.
        host: The host.
        entries: (event, the entry holding graphmem's handler), in the order to add.

    Raises:
        SettingsFileError: The hooks object or an event's value has the wrong type.
    """
    for event, entry in entries:
        events = doc.ensure_object(host.hooks_keys)
        member = events.member(event)
        if member is not None:
            if member.value.kind != "array":
                raise SettingsFileError(doc.path, f"{_name(host, event)} is not a JSON array")
            if isinstance(member.value.value, list) and entry in member.value.value:
                continue
            while (found := _find_ours(doc, host, event)) is not None:
                _remove_pruned(doc, found)
        events = doc.ensure_object(host.hooks_keys)
        member = events.member(event)
        if member is None:
            doc.insert(events, event, [entry])
        else:
            doc.insert(member.value, None, entry)


def remove_hooks(doc: JsonDocument, host: Host) -> None:
    """Takes out every hook handler of graphmem's, and the containers that leaves empty."""
    while (found := _find_ours(doc, host, None)) is not None:
        _remove_pruned(doc, found)


def add_mcp(doc: JsonDocument, keys: tuple[str, ...], entry: JsonValue) -> None:
    """Sets the MCP server ``graphmem`` at ``keys`` to ``entry`` (nothing when it is)."""
    servers = doc.ensure_object(keys)
    member = servers.member(MCP_NAME)
    if member is not None and member.value.value == entry:
        return
    if member is not None:
        remove_mcp(doc, keys)
        servers = doc.ensure_object(keys)
    doc.insert(servers, MCP_NAME, entry)


def remove_mcp(doc: JsonDocument, keys: tuple[str, ...]) -> None:
    """Takes out the MCP server ``graphmem`` (and the servers object, when left empty)."""
    steps = _path_steps(doc, (*keys, MCP_NAME))
    if steps is not None:
        _remove_pruned(doc, steps)


def has_mcp(doc: JsonDocument, keys: tuple[str, ...]) -> bool:
    """Whether the document names an MCP server ``graphmem`` at ``keys``."""
    servers = doc.object_at(keys)
    return servers is not None and servers.member(MCP_NAME) is not None


def hooked_events(doc: JsonDocument, host: Host) -> dict[str, list[dict[str, JsonValue]]]:
    """The handlers of graphmem's in the document, by event."""
    events = doc.object_at(host.hooks_keys)
    found: dict[str, list[dict[str, JsonValue]]] = {}
    if events is None:
        return found
    for member in events.members:
        for handler in _handlers(member.value, host):
            if host.is_ours(handler.value) and isinstance(handler.value, dict):
                found.setdefault(member.key, []).append(handler.value)
    return found


def _name(host: Host, event: str) -> str:
    return ".".join((*host.hooks_keys, event))


def _handlers(event: Node, host: Host) -> list[Node]:
    """The handler nodes of one event's list."""
    if event.kind != "array":
        return []
    if not host.grouped:
        return list(event.items)
    handlers: list[Node] = []
    for group in event.items:
        inner = group.member("hooks") if group.kind == "object" else None
        if inner is not None and inner.value.kind == "array":
            handlers.extend(inner.value.items)
    return handlers


def _find_ours(doc: JsonDocument, host: Host, only: str | None) -> list[Step] | None:
    """The steps down to one handler of graphmem's (in event ``only``, or any)."""
    root = doc.root()
    events = doc.object_at(host.hooks_keys)
    if events is None:
        return None
    for event_index, member in enumerate(events.members):
        if (only is not None and member.key != only) or member.value.kind != "array":
            continue
        for item_index, item in enumerate(member.value.items):
            steps = _path_steps(doc, host.hooks_keys, root)
            assert steps is not None  # the events object is there
            steps += [(events, event_index), (member.value, item_index)]
            if not host.grouped:
                if host.is_ours(item.value):
                    return steps
                continue
            inner = item.member("hooks") if item.kind == "object" else None
            if inner is None or inner.value.kind != "array":
                continue
            for handler_index, handler in enumerate(inner.value.items):
                if host.is_ours(handler.value):
                    return [*steps, (inner.value, handler_index)]
    return None


def _path_steps(
    doc: JsonDocument, keys: tuple[str, ...], root: Node | None = None
) -> list[Step] | None:
    """The steps from the root down to the member at ``keys``, None when it is absent."""
    node = root if root is not None else doc.root()
    steps: list[Step] = []
    for key in keys:
        if node.kind != "object":
            return None
        index = next((i for i, m in enumerate(node.members) if m.key == key), None)
        if index is None:
            return None
        steps.append((node, index))
        node = node.members[index].value
    return steps


def _remove_pruned(doc: JsonDocument, steps: list[Step]) -> None:
    """Removes the innermost entry; a container it would leave empty goes instead."""
    for container, index in reversed(steps[1:]):
        if len(container.members or container.items) > 1:
            doc.remove(container, index)
            return
    container, index = steps[0]
    doc.remove(container, index)
