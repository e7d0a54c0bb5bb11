"""``graphmem mcp``: the MCP server over stdio, for one principal.

A local agent host starts it as a child process and speaks MCP on its stdin and
stdout; everything graphmem logs goes to stderr. The transport is graphmem's own, not
the SDK's: every line is read by :func:`graphmem.serve.wire.read_line`, so a line the
server cannot take is answered with a JSON-RPC error instead of silence, and the server
keeps serving. While it serves, file descriptors 0 and 1 point at the null device and at
stderr, so nothing else in the process can read the requests or write into the replies.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage

from graphmem.client import GraphMem
from graphmem.errors import InvalidInput
from graphmem.limits import MAX_LINE_BYTES
from graphmem.serve.server import MemoryServer
from graphmem.serve.tools import Defaults
from graphmem.serve.wire import error_reply, read_line

_DISCARD_CHUNK = 1024 * 1024
"""How much of an over-long line is read (and dropped) at a time."""


@contextmanager
def _claimed_stdio() -> Iterator[tuple[BinaryIO, BinaryIO]]:
    """The wire's two ends on private descriptors; fds 0 and 1 point elsewhere meanwhile."""
    sys.stdout.flush()
    wire_in_fd, wire_out_fd = os.dup(0), os.dup(1)
    null_in = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null_in, 0)
    os.close(null_in)
    os.dup2(2, 1)
    try:
        with (
            os.fdopen(wire_in_fd, "rb", buffering=0, closefd=False) as wire_in,
            os.fdopen(wire_out_fd, "wb", closefd=False) as wire_out,
        ):
            yield wire_in, wire_out
    finally:
        os.dup2(wire_in_fd, 0)
        os.dup2(wire_out_fd, 1)
        os.close(wire_in_fd)
        os.close(wire_out_fd)


def _read_wire_line(wire: BinaryIO) -> bytes | None:
    """The next line (without its end), ``b""`` for one too long to take, None at the end."""
    line = wire.readline(MAX_LINE_BYTES + 1)
    if not line:
        return None
    if len(line) <= MAX_LINE_BYTES or line.endswith(b"\n"):
        return line.rstrip(b"\r\n")
    while (rest := wire.readline(_DISCARD_CHUNK)) and not rest.endswith(b"\n"):
        pass
    return b""


async def _read_requests(
    wire: BinaryIO,
    to_server: MemoryObjectSendStream[SessionMessage | Exception],
    to_client: MemoryObjectSendStream[SessionMessage],
) -> None:
    """Feeds the server each message read, and answers each line it cannot take."""
    async with to_server, to_client:
        while True:
            line = await anyio.to_thread.run_sync(_read_wire_line, wire, abandon_on_cancel=True)
            if line is None:
                return
            if not line.strip():
                continue
            message = read_line(line) if line else _too_long()
            if isinstance(message, types.JSONRPCError):
                await to_client.send(SessionMessage(message))
            else:
                await to_server.send(SessionMessage(message))


def _too_long() -> types.JSONRPCError:
    error = InvalidInput(
        f"message: a line is at most {MAX_LINE_BYTES} bytes", field="message", rule="size"
    )
    return error_reply(None, types.PARSE_ERROR, error)


async def _write_replies(
    wire: BinaryIO, from_server: MemoryObjectReceiveStream[SessionMessage]
) -> None:
    """Writes each outgoing message as one line of JSON."""
    async with from_server:
        async for session_message in from_server:
            await anyio.to_thread.run_sync(_write_line, wire, _encoded(session_message.message))


def _encoded(message: types.JSONRPCMessage) -> bytes:
    """The message as one line of UTF-8 JSON; an error reply if it cannot be encoded."""
    try:
        text = message.model_dump_json(by_alias=True, exclude_unset=True)
        return text.encode("utf-8") + b"\n"
    except (ValueError, UnicodeEncodeError):
        request_id = getattr(message, "id", None)
        error = InvalidInput(
            "message: the reply holds text that cannot be sent as UTF-8",
            field="message",
            rule="utf8",
        )
        reply = error_reply(request_id, types.INTERNAL_ERROR, error)
        return reply.model_dump_json(by_alias=True).encode("utf-8") + b"\n"


def _write_line(wire: BinaryIO, data: bytes) -> None:
    wire.write(data)
    wire.flush()


async def _serve(memory: MemoryServer) -> None:
    with _claimed_stdio() as (wire_in, wire_out):
        to_server, server_reads = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        server_writes, to_client = anyio.create_memory_object_stream[SessionMessage](0)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_read_requests, wire_in, to_server, server_writes.clone())
            tasks.start_soon(_write_replies, wire_out, to_client)
            async with server_writes:
                await memory.server.run(
                    server_reads, server_writes, memory.server.create_initialization_options()
                )


def run_stdio(client: GraphMem, defaults: Defaults) -> None:
    """Serves ``client``'s principal on stdin/stdout until the host closes the pipe."""
    memory = MemoryServer(lambda principal: client, lambda ctx: client.principal, defaults)
    anyio.run(_serve, memory)


def work_tree(directory: Path) -> Path:
    """The root of the git work tree holding ``directory``, else ``directory`` itself."""
    directory = directory.resolve()
    for candidate in (directory, *directory.parents):
        if (candidate / ".git").exists():
            return candidate
    return directory
