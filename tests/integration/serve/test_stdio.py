"""`graphmem mcp` over stdio, driven by the official SDK client against a real Neo4j."""

from __future__ import annotations

import hashlib
from pathlib import Path

import anyio

from graphmem.anchors.parsing import PARALLEL_THRESHOLD
from graphmem.serve.server import snapshot_uri
from graphmem.serve.tools import TOOLS
from tests.integration.serve.conftest import stdio_client


def test_the_memory_loop_over_stdio(neo4j_env: dict[str, str], work_tree: Path) -> None:
    async def scenario() -> None:
        async with stdio_client(neo4j_env, work_tree) as mcp:
            listed = await mcp.list_tools()
            assert {tool.name for tool in listed.tools} == {tool.name for tool in TOOLS}
            believe_schema = next(t for t in listed.tools if t.name == "believe").input_schema
            assert "statement" in believe_schema["properties"]

            remembered = await mcp.call_tool(
                "remember",
                {"title": "Fixed the flaky invoice test", "observations": ["floats in Decimal"]},
            )
            assert not remembered.is_error
            episode_id = remembered.structured_content["episode_id"]
            believed = await mcp.call_tool(
                "believe",
                {
                    "statement": "Invoice totals are built from Decimal strings",
                    "type": "lesson",
                    "evidence": [{"episode_id": episode_id}],
                },
            )
            belief_id = believed.structured_content["belief_id"]
            assert believed.content[0].text == f"belief {belief_id}"

            found = await mcp.call_tool("recall", {"query": "how are invoice totals built?"})
            assert not found.is_error
            assert "Invoice totals are built from Decimal strings" in found.content[0].text
            rendered = found.content[0].text.encode()
            assert (
                hashlib.sha256(rendered).hexdigest() == found.structured_content["rendered_sha256"]
            )
            assert found.structured_content["ids"] == [belief_id]
            assert found.structured_content["conflicts"] == []
            assert found.structured_content["project"] == "shop"  # the work tree's name
            assert found.structured_content["trace_id"]

            corrected = await mcp.call_tool("correct", {"belief_id": belief_id, "kind": "not_true"})
            assert not corrected.is_error
            again = await mcp.call_tool("recall", {"query": "how are invoice totals built?"})
            assert belief_id not in again.content[0].text
            assert again.structured_content["ids"] == []

            await mcp.call_tool(
                "believe", {"statement": "Prefer small pull requests", "type": "preference"}
            )
            resources = await mcp.list_resources()
            assert snapshot_uri("shop") in [str(r.uri) for r in resources.resources]
            snapshot = await mcp.read_resource(snapshot_uri("shop"))
            assert "Prefer small pull requests" in snapshot.contents[0].text
            tool_snapshot = await mcp.call_tool("snapshot", {})
            assert tool_snapshot.content[0].text == snapshot.contents[0].text

    anyio.run(scenario)


def test_malformed_arguments_are_tool_errors_and_the_server_goes_on(
    neo4j_env: dict[str, str], work_tree: Path
) -> None:
    bad_calls = [
        ("believe", {"statement": 42, "type": "fact"}, "statement"),
        ("believe", {"statement": "s", "type": "opinion"}, "type"),
        ("believe", {"statement": "x" * 1_000_000, "type": "fact"}, "statement"),
        ("believe", {"statement": "nul\x00inside", "type": "fact"}, "statement"),
        ("recall", {"query": "q", "k": "many"}, "k"),
        ("recall", {}, "query"),
        ("retire", {"belief_id": "not-an-id", "reason": "r"}, "belief_id"),
        ("remember", {"title": "t", "kind": "meeting"}, "kind"),
        ("no_such_tool", {}, "name"),
    ]

    async def scenario() -> None:
        async with stdio_client(neo4j_env, work_tree) as mcp:
            for name, arguments, field in bad_calls:
                result = await mcp.call_tool(name, arguments)
                assert result.is_error, name
                assert result.structured_content["error"]["field"] == field
                assert f"field {field}" in result.content[0].text
            fine = await mcp.call_tool("believe", {"statement": "Still here", "type": "fact"})
            assert not fine.is_error
            missing = await mcp.call_tool(
                "retire", {"belief_id": "01a230d6-c141-7277-87f4-60f7710e9f0a", "reason": "r"}
            )
            assert missing.is_error
            assert missing.structured_content["error"]["type"] == "NotFound"

    anyio.run(scenario)


def test_index_code_indexes_the_work_tree_by_default(
    neo4j_env: dict[str, str], work_tree: Path
) -> None:
    extra = PARALLEL_THRESHOLD + 8  # enough files for the parse worker processes
    for index in range(extra):
        (work_tree / "gen" / f"m{index}.py").parent.mkdir(exist_ok=True)
        (work_tree / "gen" / f"m{index}.py").write_text(f"def f{index}():\n    return 1\n")

    async def scenario() -> None:
        async with stdio_client(neo4j_env, work_tree) as mcp:
            indexed = await mcp.call_tool("index_code", {})
            assert not indexed.is_error
            assert indexed.structured_content["files"]["parsed"] == 2 + extra
            assert indexed.structured_content["root"] == str(work_tree.resolve())
            anchored = await mcp.call_tool(
                "believe",
                {
                    "statement": "Invoice.total returns one",
                    "type": "fact",
                    "anchor": {"path": "billing/invoice.py", "symbol": "Invoice.total"},
                },
            )
            status = await mcp.call_tool(
                "anchor_status", {"belief_id": anchored.structured_content["belief_id"]}
            )
            assert status.structured_content["state"] == "verified"
            outside = await mcp.call_tool("index_code", {"root": "../.."})
            assert outside.is_error
            assert outside.structured_content["error"]["rule"] == "inside_code_root"

    anyio.run(scenario)
