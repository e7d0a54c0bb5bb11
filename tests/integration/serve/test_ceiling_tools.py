"""The server's sensitivity ceiling over stdio MCP, driven by the official SDK client."""

from __future__ import annotations

from pathlib import Path

import anyio

from tests.integration.serve.conftest import stdio_client

KEY = "AKIA" + "QZ7HX2KD4PL9MW3T"  # a fake AWS access key id in the documented shape


def test_a_call_sees_at_most_the_servers_ceiling(
    neo4j_env: dict[str, str], work_tree: Path
) -> None:
    async def scenario() -> None:
        async with stdio_client(neo4j_env, work_tree, "--ceiling", "internal") as mcp:
            await mcp.call_tool(
                "believe", {"statement": f"The deploy key is {KEY}", "type": "fact"}
            )
            await mcp.call_tool(
                "believe",
                {
                    "statement": "The deploy key rotates monthly",
                    "type": "fact",
                    "sensitivity": "confidential",
                },
            )
            await mcp.call_tool(
                "believe", {"statement": "The deploy key is in Vault", "type": "fact"}
            )
            found = await mcp.call_tool("recall", {"query": "deploy key", "arms": ["lexical"]})
            assert not found.is_error
            assert found.structured_content["withheld"] == 2
            assert KEY not in found.content[0].text and "monthly" not in found.content[0].text
            refused = await mcp.call_tool(
                "recall", {"query": "deploy key", "ceiling": "secret", "arms": ["lexical"]}
            )
            assert refused.is_error
            assert refused.structured_content["error"]["field"] == "ceiling"
            lower = await mcp.call_tool(
                "recall", {"query": "deploy key", "ceiling": "public", "arms": ["lexical"]}
            )
            assert lower.structured_content["ids"] == []
            assert lower.structured_content["withheld"] == 3

    anyio.run(scenario)
