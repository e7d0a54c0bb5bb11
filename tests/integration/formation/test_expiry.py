"""Expiry of formed beliefs on a real Neo4j, with an injected clock (never a sleep).

A belief formed from an episode observed at t0 is confirmed at t0; ``expire(now)``
demotes it once ``now`` is 90 days past its confirmation and retires it 90 days after
that; a later episode that reinforces it confirms it again. Explicit and user-authority
beliefs never expire.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from typer.testing import CliRunner

from graphmem import GraphMem
from graphmem.cli import app
from graphmem.store.cypher import queries_dir, split_statements
from graphmem.store.database import Database
from tests.integration.capture.test_recorded_sessions import _client
from tests.integration.conftest import Graph

T0 = datetime.now(UTC).replace(microsecond=0)
STATEMENT = "The billing service reads its rates from rates.toml"
runner = CliRunner()


def _at(days: float) -> datetime:
    return T0 + timedelta(days=days)


def _observed(memory: GraphMem, days: float, *observations: str, **policy: Any) -> list[str]:
    """Consolidates an episode observed at t0 + ``days``; returns the ids it formed."""
    when = _at(days)
    episode = memory.remember(
        {
            "project": "billing",
            "kind": "task",
            "title": f"work on day {days}",
            "observations": list(observations),
            "started_at": when,
            "ended_at": when,
        }
    )
    result = memory.consolidate(episode, policy=policy or None)
    return [*result.created, *result.reinforced]


def test_a_formed_belief_is_demoted_then_confirmed_then_retired(memory: GraphMem) -> None:
    (formed,) = _observed(memory, 0, STATEMENT)
    belief = memory.get_belief(formed)
    assert belief.last_confirmed_at == T0 and belief.stale_since is None

    assert memory.expire(_at(89)).demoted == []
    assert not memory.get_belief(formed).is_stale

    demoted = memory.expire(_at(91))
    assert (demoted.demoted, demoted.retired, demoted.demoted_count) == ([formed], [], 1)
    stale = memory.get_belief(formed)
    assert stale.is_stale and stale.stale_since == _at(91) and stale.state == "active"
    assert [b.stale_since for b in memory.list_beliefs(project="billing")] == [_at(91)]

    # Re-observed at t0 + 100 days: confirmed again, no longer stale.
    assert _observed(memory, 100, STATEMENT) == [formed]
    confirmed = memory.get_belief(formed)
    assert confirmed.last_confirmed_at == _at(100) and not confirmed.is_stale

    assert memory.expire(_at(189)).demoted == []
    assert memory.expire(_at(191)).demoted == [formed]
    assert memory.expire(_at(280)).retired == []  # stale for 89 days only
    retired = memory.expire(_at(281))
    assert (retired.demoted, retired.retired) == ([], [formed])

    gone = memory.get_belief(formed)
    assert gone.state == "retired" and not gone.is_live and not gone.is_stale
    assert gone.valid_to == _at(281) and gone.retired_at == _at(281)
    assert gone.retired_reason is not None and gone.retired_reason.startswith("expired")
    assert gone.stale_since == _at(191) and gone.last_confirmed_at == _at(100)
    assert [e.role for e in gone.evidence] == ["observation", "observation"]
    assert [entry.belief.id for entry in memory.history(formed)] == [formed]
    assert memory.list_beliefs(project="billing") == []
    events = [e for e in memory.events() if e.get("node_id") == formed]
    assert [e["type"] for e in events].count("belief.stale") == 2
    assert [e["type"] for e in events][-1] == "belief.retired"


def test_expiry_twice_with_the_same_now_changes_nothing(memory: GraphMem, graph: Graph) -> None:
    (old,) = _observed(memory, 0, STATEMENT)
    assert memory.expire(_at(91)).demoted == [old]
    (new,) = _observed(memory, 150, "Invoices are numbered per tenant")
    first = memory.expire(_at(250))
    assert (first.demoted, first.retired) == ([new], [old])
    seqs = graph.count(memory.principal, "MemoryEvent")
    again = memory.expire(_at(250))
    assert (again.demoted, again.retired) == ([], [])
    assert graph.count(memory.principal, "MemoryEvent") == seqs


def test_a_dry_run_reports_and_writes_nothing(memory: GraphMem) -> None:
    (formed,) = _observed(memory, 0, STATEMENT)
    planned = memory.expire(_at(91), dry_run=True)
    assert planned.dry_run and planned.demoted == [formed]
    assert not memory.get_belief(formed).is_stale
    assert memory.expire(_at(91)).demoted == [formed]


def test_a_stale_belief_ranks_below_an_otherwise_equal_fresh_one(memory: GraphMem) -> None:
    no_novelty = {"novelty_gate": False}  # the same statement forms a second belief
    (old,) = _observed(memory, 0, STATEMENT, **no_novelty)
    (new,) = _observed(memory, 50, STATEMENT, **no_novelty)
    before = {item.id: item for item in memory.recall("billing rates", project="billing").items}
    assert set(before) == {old, new} and not any(i.stale for i in before.values())

    assert memory.expire(_at(91)).demoted == [old]
    after = memory.recall("billing rates", project="billing")
    assert [item.id for item in after.items] == [new, old]
    stale = after.items[1]
    assert stale.stale and not after.items[0].stale
    assert stale.score == round(before[old].score * 0.5, 8)
    assert after.items[0].score == before[new].score
    assert "stale: not confirmed by an episode lately" in after.rendered
    assert after.rendered.count("stale") == 1


def test_explicit_and_user_authority_beliefs_never_expire(memory: GraphMem) -> None:
    episode = memory.remember({"project": "billing", "kind": "task", "title": "told"})
    stated = memory.believe(
        "Rates change on the first of the month",
        project="billing",
        type="fact",
        evidence=[episode],
    )
    many = memory.believe_many(
        [{"statement": "Refunds go through Stripe", "project": "billing", "type": "fact"}]
    )
    (by_user,) = _observed(memory, 0, "Tax is computed per line", authority="user")
    (by_agent,) = _observed(memory, 0, STATEMENT)
    # An explicit belief an episode reinforces is confirmed, and still never expires.
    assert _observed(memory, 0, "Rates change on the first of the month") == [stated]

    assert memory.expire(_at(1_000)).demoted == [by_agent]
    assert memory.expire(_at(2_000)).retired == [by_agent]
    for belief_id in (stated, *many, by_user):
        belief = memory.get_belief(belief_id)
        assert belief.is_live and not belief.is_stale, belief.statement


def test_the_sessions_sweep_runs_expiry_at_its_now(memory: GraphMem) -> None:
    (formed,) = _observed(memory, 0, STATEMENT)
    assert memory.consolidate_sessions(now=_at(89)) == []
    assert not memory.get_belief(formed).is_stale
    memory.consolidate_sessions(now=_at(91))
    assert memory.get_belief(formed).stale_since == _at(91)


def test_migration_016_confirms_formed_beliefs_written_before_it(
    memory: GraphMem, graph: Graph, database: Database
) -> None:
    (formed,) = _observed(memory, 0, STATEMENT)
    assert _observed(memory, 10, STATEMENT) == [formed]
    graph.query("MATCH (b:Belief {id: $id}) REMOVE b.last_confirmed_at", id=formed)
    text = (queries_dir() / "schema" / "016_expiry.cypher").read_text(encoding="utf-8")
    database.run_autocommit(split_statements(text)[0])
    (row,) = graph.query(
        "MATCH (b:Belief {id: $id})<-[:ABOUT]-(e:MemoryEvent {type: 'belief.reinforced'}) "
        "RETURN b.last_confirmed_at = e.at AS same",
        id=formed,
    )
    assert row["same"]


def test_the_expire_command(neo4j_env: dict[str, str]) -> None:
    with _client(neo4j_env) as memory:
        (formed,) = _observed(memory, 0, STATEMENT)
    now = _at(91).isoformat()

    planned = runner.invoke(app, ["expire", "--now", now, "--dry-run", "--json"], env=neo4j_env)
    assert planned.exit_code == 0, planned.output
    shown = json.loads(planned.stdout)
    assert shown["dry_run"] and shown["demoted"] == [formed] and shown["demoted_count"] == 1

    done = runner.invoke(app, ["expire", "--now", now, "--json"], env=neo4j_env)
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert (result["demoted"], result["retired"], result["dry_run"]) == ([formed], [], False)
    assert datetime.fromisoformat(result["now"]) == _at(91)

    again = runner.invoke(app, ["expire", "--now", now], env=neo4j_env)
    assert again.exit_code == 0, again.output
    assert again.stdout == f"expiry at {_at(91).isoformat()}: 0 demoted, 0 retired\n"

    listed = runner.invoke(app, ["beliefs", "--all-projects"], env=neo4j_env)
    assert " stale " in listed.stdout
    described = runner.invoke(app, ["show", formed], env=neo4j_env)
    assert f"stale:       since {_at(91).isoformat()}" in described.stdout

    naive = runner.invoke(app, ["expire", "--now", "2026-01-01T00:00:00"], env=neo4j_env)
    assert naive.exit_code != 0 and "zone" in naive.output
    bad = runner.invoke(app, ["expire", "--now", "soon"], env=neo4j_env)
    assert bad.exit_code != 0 and "--now" in bad.output


def test_the_async_client_expires_too(make_memory: Callable[..., GraphMem]) -> None:
    import asyncio

    from graphmem import AsyncGraphMem

    memory = make_memory()
    (formed,) = _observed(memory, 0, STATEMENT)
    settings = memory.settings

    async def run() -> list[str]:
        async with AsyncGraphMem(
            memory.principal, uri=settings.uri, user=settings.user, password=settings.password
        ) as handle:
            return (await handle.expire(_at(91))).demoted

    assert asyncio.run(run()) == [formed]
