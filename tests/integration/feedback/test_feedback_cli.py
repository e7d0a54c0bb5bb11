"""cite, hints, consolidate (consuming hints) and traces sweep from the CLI."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from graphmem.cli import app

runner = CliRunner()


def _run(env: dict[str, str], *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=env, input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_cite_hints_consolidate_and_sweep_from_the_cli(neo4j_env: dict[str, str]) -> None:
    code, out, _ = _run(
        neo4j_env, "believe", "Invoices round half-up", "--project", "p", "--type", "fact", "--json"
    )
    belief = json.loads(out)["id"]
    code, out, _ = _run(neo4j_env, "recall", "invoices round", "--project", "p", "--json")
    recalled = json.loads(out)
    assert [item["id"] for item in recalled["items"]] == [belief]
    trace_id = recalled["trace_id"]

    code, out, err = _run(neo4j_env, "cite", trace_id, belief, "--json")
    assert code == 0, err
    cited = json.loads(out)
    assert cited["added"] == [belief] and cited["refreshed"] == [belief]
    code, out, _ = _run(neo4j_env, "cite", trace_id, belief)
    assert code == 0 and "already cited" in out and "nothing changed" in out

    code, _, err = _run(neo4j_env, "cite", trace_id, "01a230d6-c141-7277-87f4-60f7710e9f0a")
    assert code == 1 and "not returned by trace" in err
    code, _, err = _run(neo4j_env, "cite", trace_id, "nope", "--json")
    assert code == 1 and json.loads(err)["error"]["field"] == "item_ids"
    code, _, err = _run(neo4j_env, "cite", "01a230d6-c141-7277-87f4-60f7710e9f0a", belief)
    assert code == 4 and "does not exist for this principal" in err

    code, out, _ = _run(neo4j_env, "hints")
    assert code == 0 and out.strip() == "no formation hints"
    for _ in range(3):
        code, out, _ = _run(
            neo4j_env, "recall", "deploy day?", "--project", "p", "--arms", "lexical", "--json"
        )
        assert json.loads(out)["items"] == []
    code, out, _ = _run(neo4j_env, "hints", "--json")
    [hint] = json.loads(out)
    assert hint["subject"] == "deploy day" and hint["misses"] == 3 and hint["state"] == "open"
    code, out, _ = _run(neo4j_env, "hints")
    assert "3 misses" in out and "'deploy day'" in out and hint["id"] in out

    episode = {"project": "p", "title": "Deploys", "decisions": ["deploy day: Fridays"]}
    code, out, _ = _run(neo4j_env, "remember", "-", "--json", stdin=json.dumps(episode))
    episode_id = json.loads(out)["id"]
    code, out, _ = _run(neo4j_env, "consolidate")
    assert code == 0 and "hint 'deploy day' consumed: 1 episode" in out and episode_id in out
    code, out, _ = _run(neo4j_env, "hints", "--all", "--json")
    [consumed] = json.loads(out)
    assert consumed["state"] == "consumed" and consumed["episodes"] == [episode_id]

    code, out, _ = _run(neo4j_env, "traces", "sweep", "--older-than", "0d", "--json")
    assert code == 0 and json.loads(out)["traces"] == 4  # a recall and three misses
    code, out, _ = _run(neo4j_env, "trace", trace_id, "--operator", "--json")
    shown = json.loads(out)
    assert shown["operator_expired_at"] and "operator_arm_ranks" not in shown
    assert shown["cited_ids"] == [belief]
    code, _, err = _run(neo4j_env, "traces", "sweep", "--older-than", "a while")
    assert code == 1 and "30d" in err
    code, out, _ = _run(neo4j_env, "traces", "sweep")
    assert code == 0 and "removed the operator fields of 0 traces" in out
