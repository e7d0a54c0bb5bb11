"""The cite and hints tools over stdio MCP, driven by the official SDK client."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anyio

from graphmem import GraphMem
from tests.integration.serve.conftest import stdio_client


def test_cite_and_hints_over_mcp(
    neo4j_env: dict[str, str], work_tree: Path, make_memory: Callable[..., GraphMem]
) -> None:
    stranger = make_memory()
    foreign = stranger.recall("anything", project="p", arms=["lexical"]).trace_id
    stranger.get_trace(foreign)

    async def scenario() -> None:
        async with stdio_client(neo4j_env, work_tree) as mcp:
            listed = {tool.name: tool for tool in (await mcp.list_tools()).tools}
            assert {"cite", "hints"} <= set(listed)
            assert listed["hints"].annotations.read_only_hint is True
            believed = await mcp.call_tool(
                "believe", {"statement": "Invoices round half-up", "type": "fact"}
            )
            belief = believed.structured_content["belief_id"]
            found = await mcp.call_tool("recall", {"query": "invoices round"})
            trace_id = found.structured_content["trace_id"]

            cited = await mcp.call_tool("cite", {"trace_id": trace_id, "item_ids": [belief]})
            assert not cited.is_error
            assert cited.structured_content["added"] == [belief]
            assert cited.structured_content["refreshed"] == [belief]
            assert "confidence unchanged" in cited.content[0].text

            for arguments, field in (
                ({"trace_id": trace_id, "item_ids": []}, "item_ids"),
                ({"trace_id": trace_id, "item_ids": ["nope"]}, "item_ids.0"),
                ({"trace_id": trace_id}, "item_ids"),
                ({"trace_id": "x", "item_ids": [belief]}, "trace_id"),
                (
                    {"trace_id": trace_id, "item_ids": ["01a230d6-c141-7277-87f4-60f7710e9f0a"]},
                    "item_ids",
                ),
            ):
                bad = await mcp.call_tool("cite", arguments)
                assert bad.is_error and bad.structured_content["error"]["field"] == field
            other = await mcp.call_tool("cite", {"trace_id": foreign, "item_ids": [belief]})
            assert other.is_error and other.structured_content["error"]["type"] == "NotFound"

            for _ in range(3):
                await mcp.call_tool(
                    "recall", {"query": "what is the deploy day?", "arms": ["lexical"]}
                )
            hints = await mcp.call_tool("hints", {})
            assert not hints.is_error
            [hint] = hints.structured_content["hints"]
            assert hint["subject"] == "what is the deploy day" and hint["misses"] == 3
            assert "what is the deploy day" in hints.content[0].text
            empty = await mcp.call_tool("hints", {"include_consumed": "yes"})
            assert empty.is_error

    anyio.run(scenario)
