"""The MCP server: graphmem's tools and snapshot resources over any MCP transport.

Built on the official SDK's low-level ``Server`` so that graphmem, not the SDK, owns
validation: each call's arguments go through the tool's pydantic model, and a value
that breaks a rule comes back as a tool error (``isError``) naming the field and the
rule, exactly as the client would raise it. No input, however malformed, stops the
server: an unexpected failure is logged on stderr and answered as a tool error.

Which principal a call acts for is the transport's business (:data:`PrincipalOf`): the
one given at start for stdio, the bearer token's for HTTP. Client calls block, so they
run on worker threads, at most :data:`WORKER_THREADS` at a time.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import quote, unquote

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

from graphmem.client import GraphMem
from graphmem.errors import GraphMemError, InvalidInput
from graphmem.serve.tools import TOOLS, Defaults, Tool, ToolOutput
from graphmem.validation import parse

log = logging.getLogger("graphmem.serve")

WORKER_THREADS = 8
"""Client calls served at once; more wait their turn."""
SNAPSHOT_URI = "graphmem://snapshot/{project}"
_SNAPSHOT_URI = re.compile(r"^graphmem://snapshot/(?P<project>[^/?#]+)$")
_READ_ONLY = frozenset({"recall", "search_episodes", "snapshot", "anchor_status", "hints"})
_DESTRUCTIVE = frozenset({"forget"})
_INSTRUCTIONS = (
    "graphmem is this agent's long-term memory. Call `snapshot` at the start of a "
    "session, `recall` before deciding something the past may answer, `remember` "
    "after finishing a piece of work, and `believe` for what you learned. Cite belief "
    "ids from recalled text, and call `cite` with the recall's trace id and the ids you "
    "used; `correct` or `retire` beliefs that turn out wrong."
)

Context = ServerRequestContext[Any, Any]
PrincipalOf = Callable[[Context], str]
"""Says which principal one request acts for (from the transport, never the body)."""
ClientFor = Callable[[str], GraphMem]
"""Returns the client of a principal."""


def snapshot_uri(project: str) -> str:
    """The resource URI of a project's snapshot (the project name percent-encoded)."""
    return SNAPSHOT_URI.format(project=quote(project, safe=""))


def _error_result(error: GraphMemError) -> types.CallToolResult:
    details = error.to_dict()
    where = ", ".join(f"{key} {details[key]}" for key in ("field", "rule", "row") if key in details)
    text = f"{details['type']}: {error.message}" + (f" ({where})" if where else "")
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content={"error": details},
        is_error=True,
    )


def _tool_definition(tool: Tool) -> types.Tool:
    annotations = types.ToolAnnotations(
        read_only_hint=tool.name in _READ_ONLY,
        destructive_hint=tool.name in _DESTRUCTIVE,
        open_world_hint=False,
    )
    return types.Tool(
        name=tool.name,
        description=tool.description,
        input_schema=tool.arguments.model_json_schema(),
        output_schema=tool.output.model_json_schema(mode="serialization"),
        annotations=annotations,
    )


class MemoryServer:
    """graphmem's MCP server, for whatever principals the transport authenticates.

    Args:
        clients: Returns the client of a principal.
        principal_of: Says which principal a request acts for.
        defaults: The default project and code root.
    """

    def __init__(self, clients: ClientFor, principal_of: PrincipalOf, defaults: Defaults) -> None:
        from graphmem import __version__

        self._clients = clients
        self._principal_of = principal_of
        self._defaults = defaults
        self._tools = {
            tool.name: tool
            for tool in TOOLS
            if tool.name != "index_code" or defaults.code_root is not None
        }
        self._definitions = [_tool_definition(tool) for tool in self._tools.values()]
        self._limiter = anyio.CapacityLimiter(WORKER_THREADS)
        self.server: Server[Any] = Server(
            "graphmem",
            version=__version__,
            instructions=_INSTRUCTIONS,
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            on_list_resources=self._list_resources,
            on_list_resource_templates=self._list_resource_templates,
            on_read_resource=self._read_resource,
        )
        # The SDK's one default middleware emits OpenTelemetry spans (a no-op with no
        # exporter, yet a third of a millisecond per call); graphmem traces recalls itself.
        self.server.middleware.clear()

    async def _in_thread(self, work: Callable[[], Any]) -> Any:
        return await anyio.to_thread.run_sync(work, limiter=self._limiter)

    async def _client(self, ctx: Context) -> GraphMem:
        principal = self._principal_of(ctx)
        client: GraphMem = await self._in_thread(partial(self._clients, principal))
        return client

    def _run(self, tool: Tool, principal: str, arguments: BaseModel) -> ToolOutput:
        """One tool call, on a worker thread (opening the principal's client if needed)."""
        return tool.run(self._clients(principal), arguments, self._defaults)

    async def _list_tools(
        self, ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self._definitions)

    async def _call_tool(
        self, ctx: Context, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        tool = self._tools.get(params.name)
        try:
            if tool is None:
                raise InvalidInput(
                    f"name: no tool {params.name!r}; tools: {', '.join(self._tools)}",
                    field="name",
                    rule="tool",
                )
            arguments: BaseModel = parse(tool.arguments, dict(params.arguments or {}))
            principal = self._principal_of(ctx)
            output: ToolOutput = await self._in_thread(
                partial(self._run, tool, principal, arguments)
            )
        except GraphMemError as error:
            return _error_result(error)
        except Exception:
            log.exception("tool %s failed", params.name)
            return types.CallToolResult(
                content=[
                    types.TextContent(type="text", text="internal error: see the server's log")
                ],
                is_error=True,
            )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=output.text)],
            structured_content=output.structured.model_dump(mode="json"),
        )

    async def _list_resources(
        self, ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        client = await self._client(ctx)
        projects: list[str] = await self._in_thread(client.projects)
        if self._defaults.project is not None and self._defaults.project not in projects:
            projects = sorted([*projects, self._defaults.project])
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=snapshot_uri(project),
                    name=f"snapshot {project}",
                    description=f"What to know at the start of a session in {project}.",
                    mime_type="text/plain",
                )
                for project in projects
            ]
        )

    async def _list_resource_templates(
        self, ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        template = types.ResourceTemplate(
            uri_template=SNAPSHOT_URI,
            name="snapshot",
            description="A project's session-start snapshot (the project name percent-encoded).",
            mime_type="text/plain",
        )
        return types.ListResourceTemplatesResult(resource_templates=[template])

    async def _read_resource(
        self, ctx: Context, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        match = _SNAPSHOT_URI.match(uri)
        if match is None:
            raise MCPError(types.INVALID_PARAMS, f"uri: no resource {uri}; use {SNAPSHOT_URI}")
        client = await self._client(ctx)
        try:
            snapshot = partial(
                client.snapshot, unquote(match["project"]), ceiling=self._defaults.ceiling
            )
            result = await self._in_thread(snapshot)
        except GraphMemError as error:
            raise MCPError(types.INVALID_PARAMS, error.message, error.to_dict()) from None
        return types.ReadResourceResult(
            contents=[
                types.TextResourceContents(uri=uri, mime_type="text/plain", text=result.rendered)
            ]
        )
