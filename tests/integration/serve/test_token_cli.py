"""`graphmem token create|list|revoke`: shown once, stored as a digest, revocable."""

from __future__ import annotations

import hashlib
import json

from typer.testing import CliRunner

from graphmem.admin import Admin
from graphmem.cli import app
from tests.integration.conftest import Graph

runner = CliRunner()


def test_create_list_revoke(neo4j_env: dict[str, str], admin: Admin, graph: Graph) -> None:
    principal = neo4j_env["GRAPHMEM_PRINCIPAL"]
    created = runner.invoke(
        app,
        ["token", "create", "--principal", principal, "--name", "laptop", "--json"],
        env=neo4j_env,
    )
    assert created.exit_code == 0, created.output
    issued = json.loads(created.stdout)
    assert set(issued) == {"id", "principal", "token"} and issued["principal"] == principal
    assert admin.principal_of_token(issued["token"]) == principal

    stored = graph.query(
        "MATCH (t:AccessToken {id: $id}) RETURN properties(t) AS p", id=issued["id"]
    )[0]["p"]
    assert stored["sha256"] == hashlib.sha256(issued["token"].encode()).hexdigest()
    assert issued["token"] not in json.dumps(stored, default=str)

    listed = runner.invoke(
        app, ["token", "list", "--principal", principal, "--json"], env=neo4j_env
    )
    assert listed.exit_code == 0
    assert issued["token"] not in listed.stdout
    [entry] = json.loads(listed.stdout)
    assert entry["id"] == issued["id"] and entry["name"] == "laptop" and entry["revoked_at"] is None

    revoked = runner.invoke(app, ["token", "revoke", issued["id"], "--json"], env=neo4j_env)
    assert revoked.exit_code == 0 and json.loads(revoked.stdout)["revoked_at"]
    assert admin.principal_of_token(issued["token"]) is None

    unknown = runner.invoke(
        app, ["token", "revoke", "01a230d6-c141-7277-87f4-60f7710e9f0a"], env=neo4j_env
    )
    assert unknown.exit_code == 4 and "does not exist" in unknown.stderr
    malformed = runner.invoke(app, ["token", "revoke", "nope"], env=neo4j_env)
    assert malformed.exit_code == 1 and "token_id" in malformed.stderr


def test_plain_create_prints_only_the_token_on_stdout(neo4j_env: dict[str, str]) -> None:
    principal = neo4j_env["GRAPHMEM_PRINCIPAL"]
    created = runner.invoke(app, ["token", "create", "--principal", principal], env=neo4j_env)
    assert created.exit_code == 0
    assert created.stdout.strip().startswith("gm_") and len(created.stdout.split()) == 1
    assert "shown once" in created.stderr
