"""``graphmem mcp``: the MCP server over stdio, for one principal.

A local agent host starts it as a child process and speaks MCP on its stdin and
stdout; everything graphmem logs goes to stderr.
"""

from __future__ import annotations

from pathlib import Path

import anyio
from mcp.server.stdio import stdio_server

from graphmem.client import GraphMem
from graphmem.serve.server import MemoryServer
from graphmem.serve.tools import Defaults


async def _serve(memory: MemoryServer) -> None:
    async with stdio_server() as (read, write):
        await memory.server.run(read, write, memory.server.create_initialization_options())


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
