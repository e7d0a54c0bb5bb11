"""`graphmem serve` over streamable HTTP: bearer tokens, one principal each, isolation."""

from __future__ import annotations

import anyio

from graphmem.admin import Admin
from graphmem.serve.server import snapshot_uri
from graphmem.store.ids import new_id
from tests.integration.conftest import Graph
from tests.integration.serve.conftest import INITIALIZE, HttpServer

SECRET = "Alice deploys the billing service on Tuesdays only"


def _principal() -> str:
    return f"test-{new_id()}"


def test_the_memory_loop_over_http(http_server: HttpServer, admin: Admin) -> None:
    token = admin.create_token(_principal(), "loop").secret

    async def scenario() -> None:
        async with http_server.client(token) as mcp:
            names = {tool.name for tool in (await mcp.list_tools()).tools}
            assert "recall" in names and "index_code" not in names  # no --code-root
            remembered = await mcp.call_tool(
                "remember", {"project": "api", "title": "Tuned the rate limiter"}
            )
            episode_id = remembered.structured_content["episode_id"]
            believed = await mcp.call_tool(
                "believe",
                {
                    "statement": "The rate limiter allows 50 requests per second",
                    "project": "api",
                    "type": "fact",
                    "evidence": [{"episode_id": episode_id}],
                },
            )
            belief_id = believed.structured_content["belief_id"]
            found = await mcp.call_tool("recall", {"query": "rate limiter", "project": "api"})
            assert found.structured_content["ids"] == [belief_id]
            await mcp.call_tool("correct", {"belief_id": belief_id, "kind": "not_true"})
            gone = await mcp.call_tool("recall", {"query": "rate limiter", "project": "api"})
            assert gone.structured_content["ids"] == []
            no_project = await mcp.call_tool("believe", {"statement": "s", "type": "fact"})
            assert no_project.structured_content["error"]["field"] == "project"
            snapshot = await mcp.read_resource(snapshot_uri("api"))
            assert snapshot.contents[0].text.startswith("Recalled for")

    anyio.run(scenario)


def test_tokens_isolate_principals(http_server: HttpServer, admin: Admin, graph: Graph) -> None:
    alice, bob = _principal(), _principal()
    alice_token = admin.create_token(alice).secret
    bob_token = admin.create_token(bob).secret

    async def scenario() -> None:
        async with http_server.client(alice_token) as a:
            episode = await a.call_tool(
                "remember",
                {"project": "billing", "title": "Deploy day", "observations": [SECRET]},
            )
            episode_id = episode.structured_content["episode_id"]
            belief = await a.call_tool(
                "believe",
                {
                    "statement": SECRET,
                    "project": "billing",
                    "type": "fact",
                    "evidence": [{"episode_id": episode_id}],
                },
            )
            belief_id = belief.structured_content["belief_id"]
        async with http_server.client(bob_token) as b:
            by_id = {
                "supersede": {"old_id": belief_id, "new": "Mondays", "reason": "r"},
                "retire": {"belief_id": belief_id, "reason": "r"},
                "correct": {"belief_id": belief_id, "kind": "not_true"},
                "forget": {"belief_id": belief_id},
                "anchor_status": {"belief_id": belief_id},
                "consolidate": {"episode_id": episode_id},
                "believe": {
                    "statement": "s",
                    "project": "x",
                    "type": "fact",
                    "evidence": [{"episode_id": episode_id}],
                },
                "remember": {"project": "x", "title": "t", "parent": episode_id},
            }
            for name, arguments in by_id.items():
                result = await b.call_tool(name, arguments)
                assert result.is_error, name
                assert result.structured_content["error"]["type"] == "NotFound", name
            reads = [
                await b.call_tool(
                    "recall", {"query": "deploy billing Tuesdays", "all_projects": True}
                ),
                await b.call_tool("search_episodes", {"query": "deploy day", "all_projects": True}),
                await b.call_tool("snapshot", {"project": "billing"}),
            ]
            for result in reads:
                assert not result.is_error
                assert result.structured_content["ids"] == []
                assert SECRET not in result.content[0].text
            listed = await b.list_resources()
            assert snapshot_uri("billing") not in [str(r.uri) for r in listed.resources]
            # the principal comes from the token, never from the request
            claimed = await b.call_tool(
                "recall", {"query": "deploy", "all_projects": True, "principal": alice}
            )
            assert claimed.is_error and claimed.structured_content["error"]["field"] == "principal"

    anyio.run(scenario)
    assert graph.count(alice, "Belief") == 1 and graph.count(alice, "Episode") == 1
    assert graph.count(bob, "Belief") == 0 and graph.count(bob, "Episode") == 0


def test_missing_wrong_and_revoked_tokens_get_401_and_write_nothing(
    http_server: HttpServer, admin: Admin, graph: Graph
) -> None:
    principal = _principal()
    issued = admin.create_token(principal)
    admin.revoke_token(issued.record.id)
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "believe",
            "arguments": {"statement": "s", "project": "p", "type": "fact"},
        },
    }
    before = graph.query("MATCH (n) RETURN count(n) AS c")[0]["c"]
    for token in (None, "gm_not-a-real-token", "Bearer", issued.secret):
        response = http_server.post(token, call)
        assert response.status_code == 401, token
        assert response.headers["www-authenticate"].startswith("Bearer")
    assert graph.query("MATCH (n) RETURN count(n) AS c")[0]["c"] == before
    assert graph.count(principal, "Belief") == 0


def test_a_session_answers_only_the_token_that_opened_it(
    http_server: HttpServer, admin: Admin
) -> None:
    alice = _principal()
    opener, same_principal = admin.create_token(alice).secret, admin.create_token(alice).secret
    other_principal = admin.create_token(_principal()).secret
    opened = http_server.post(opener, INITIALIZE)
    assert opened.status_code == 200, opened.text
    session = opened.headers["mcp-session-id"]
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert http_server.post(opener, initialized, session).status_code == 202
    list_tools = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}

    for token in (same_principal, other_principal):
        refused = http_server.post(token, list_tools, session)
        assert refused.status_code == 404, refused.text[:200]
        assert refused.json() == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32600, "message": "Session not found"},
        }
        assert http_server.delete(token, session).status_code == 404
    listed = http_server.post(opener, list_tools, session)
    assert listed.status_code == 200 and '"recall"' in listed.text
    assert http_server.delete(opener, session).status_code == 200
    assert http_server.post(opener, list_tools, session).status_code == 404
