"""Recall on a real Neo4j: filters, weights, determinism, traces, isolation, safety."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from graphmem import GraphMem, InvalidInput, NotFound, StateConflict
from graphmem.recall.arms import CATCH_UP_SLICE
from graphmem.recall.ranking import DECAY_HALF_LIFE
from graphmem.settings import ConnectionSettings
from graphmem.vectors.hashed import HashedEmbedder
from tests.integration.conftest import Graph


def test_same_query_same_bytes_and_trace(memory: GraphMem, graph: Graph) -> None:
    memory.believe("Invoices round half-up per finance", project="billing", type="decision")
    memory.believe("Retries use exponential backoff", project="billing", type="lesson")
    first = memory.recall("how do invoices round?", project="billing")
    second = memory.recall("how do invoices round?", project="billing")
    assert first.rendered == second.rendered
    assert first.rendered_sha256 == second.rendered_sha256
    assert first.items[0].statement == "Invoices round half-up per finance"
    trace = memory.get_trace(first.trace_id)  # waits for the background write
    stored = graph.query(
        "MATCH (t:RecallTrace {id: $id}) RETURN t.principal AS p", id=first.trace_id
    )
    assert stored == [{"p": memory.principal}]
    assert trace["rendered_sha256"] == first.rendered_sha256
    assert trace["item_ids"] == [item.id for item in first.items]


def test_superseded_and_past_validity(memory: GraphMem) -> None:
    old = memory.believe("The API rate limit is 50 requests per minute", project="api", type="fact")
    between = datetime.now(UTC)
    new = memory.supersede(old, "The API rate limit is 100 requests per minute", reason="raised")
    live = memory.recall("API rate limit", project="api")
    assert [item.id for item in live.items] == [new]
    past = memory.recall("API rate limit", project="api", as_of=between)
    assert [item.id for item in past.items] == [old]
    earlier = memory.recall("API rate limit", project="api", as_of=between - timedelta(days=1))
    assert earlier.items == []


def test_retired_drops_out_of_live_recall_but_not_the_past(memory: GraphMem) -> None:
    kept = memory.believe("Builds cache wheels under .cache/pip", project="ci", type="fact")
    gone = memory.believe("Builds cache wheels under /tmp/wheels", project="ci", type="fact")
    before = datetime.now(UTC)
    assert memory.retire(gone, "the wheel cache moved", actor="user") is True
    assert memory.retire(gone, "a retry") is False  # already retired: nothing changes
    live = memory.recall("where do builds cache wheels", project="ci")
    assert [item.id for item in live.items] == [kept]
    past = memory.recall("where do builds cache wheels", project="ci", as_of=before)
    assert sorted(item.id for item in past.items) == sorted([kept, gone])
    retired = memory.get_belief(gone)
    assert retired.state == "retired" and retired.retired_reason == "the wheel cache moved"
    assert not retired.is_live


def test_retire_refuses_superseded_and_unknown_beliefs(memory: GraphMem) -> None:
    old = memory.believe("Lint with flake8", project="p", type="decision")
    memory.supersede(old, "Lint with ruff", reason="faster")
    with pytest.raises(StateConflict) as superseded:
        memory.retire(old, "no longer true")
    assert superseded.value.details["rule"] == "not_superseded"
    with pytest.raises(NotFound):
        memory.retire("0190a4b2-0000-7000-8000-000000000000", "no such belief")


def test_lexical_arm_finds_a_principal_crowded_out_by_another(
    make_memory: Callable[..., GraphMem],
) -> None:
    crowd, alone = make_memory(), make_memory()
    crowd.believe_many(
        {"statement": f"Zebra crossings need lights, case {n}", "project": "p", "type": "fact"}
        for n in range(120)
    )
    mine = alone.believe("Zebra crossings are painted white", project="p", type="fact")
    result = alone.recall("zebra crossings", project="p", arms=["lexical"])
    assert [item.id for item in result.items] == [mine]


def test_another_principals_words_never_move_a_ranking(
    make_memory: Callable[..., GraphMem],
) -> None:
    first, second = make_memory(), make_memory()
    first.believe_many(
        {"statement": text, "project": "ops", "type": "fact"}
        for text in (
            "Deploys run from the release branch after the smoke tests pass",
            "The smoke tests cover login, billing and the deploy hook",
            "Billing retries failed charges three times with backoff",
            "Release notes are written before every deploy",
        )
    )
    first.remember(
        {"project": "ops", "title": "Deploy failed", "text": "smoke tests timed out on billing"}
    )
    questions = ["when do deploys run?", "billing smoke tests", "release deploy notes"]

    def answers() -> list[tuple[str, ...]]:
        rows: list[tuple[str, ...]] = []
        for question in questions:
            for arms in (["lexical"], ["lexical", "semantic", "graph"]):
                found = first.recall(question, project="ops", arms=arms, k=10)
                rows.append((found.rendered, *(f"{i.id}:{i.score}" for i in found.items)))
                hits = first.search_episodes(question, project="ops", arms=arms)
                rows.append((hits.rendered, *(f"{i.id}:{i.score}" for i in hits.items)))
        return rows

    before = answers()
    # The same words, many times over, with other frequencies and lengths.
    second.believe_many(
        {
            "statement": f"smoke tests deploy billing release {n} " * (n % 5 + 1),
            "project": "ops",
            "type": "fact",
        }
        for n in range(300)
    )
    second.remember_many(
        {"project": "ops", "title": f"deploy {n}", "text": "billing smoke tests deploy " * n}
        for n in range(1, 100)
    )
    assert answers() == before


def test_decay_lowers_old_beliefs_only_when_asked(memory: GraphMem) -> None:
    old = memory.believe("The cache TTL is five minutes", project="p", type="fact", confidence=0.9)
    memory.believe_many(  # a half-life of later writes
        {"statement": f"Filler note {n}", "project": "p", "type": "fact"}
        for n in range(DECAY_HALF_LIFE)
    )
    new = memory.believe("The cache TTL is five minutes", project="p", type="fact", confidence=0.8)
    ask = {"project": "p", "arms": ["lexical"]}
    assert [i.id for i in memory.recall("cache TTL", **ask).items] == [old, new]
    for mode in ("linear", "exponential"):
        assert [i.id for i in memory.recall("cache TTL", decay=mode, **ask).items] == [new, old]
    trace = memory.get_trace(memory.recall("cache TTL", decay="linear", **ask).trace_id)
    assert trace["decay"] == "linear"
    support = memory.remember(
        {"project": "p", "title": "checked", "observations": ["The cache TTL is five minutes"]}
    )
    assert memory.consolidate(support).reinforced == [old]  # equal twins: the older one
    for mode in ("linear", "exponential"):  # fresh support restarted its decay
        assert [i.id for i in memory.recall("cache TTL", decay=mode, **ask).items] == [old, new]


def test_zero_confidence_still_returned_last(memory: GraphMem) -> None:
    sure = memory.believe(
        "Cache keys include the tenant id", project="p", type="fact", confidence=0.9
    )
    zero = memory.believe(
        "Cache keys include the tenant id always", project="p", type="fact", confidence=0.0
    )
    result = memory.recall("cache keys tenant id", project="p")
    assert [item.id for item in result.items] == [sure, zero]


def test_cross_project_weights_and_local_never_leaves(memory: GraphMem) -> None:
    portable = memory.believe(
        "Prefer pytest fixtures over setUp methods", project="a", type="preference"
    )
    local = memory.believe(
        "Prefer pytest fixtures over setUp methods in this repo", project="a", type="decision"
    )
    here = memory.believe(
        "Prefer pytest fixtures over setUp methods here too", project="b", type="preference"
    )
    in_b = memory.recall("pytest fixtures or setUp", project="b")
    ids = [item.id for item in in_b.items]
    assert local not in ids
    assert ids.index(here) < ids.index(portable)
    portable_item = next(item for item in in_b.items if item.id == portable)
    assert "from a" in in_b.rendered and portable_item.origins == ["a"]
    in_a = memory.recall("pytest fixtures or setUp", project="a")
    assert local in [item.id for item in in_a.items]


def test_relevance_floor_drops_unrelated_items(memory: GraphMem) -> None:
    memory.believe("Database migrations run in a single transaction", project="p", type="fact")
    result = memory.recall("favourite colour of the office cat", project="p", k=10)
    assert result.items == []


def test_conflicts_are_returned_as_conflicts(memory: GraphMem, graph: Graph) -> None:
    a = memory.believe("Deploys happen on Fridays", project="p", type="fact", subject="deploy day")
    b = memory.believe(
        "Deploys never happen on Fridays", project="p", type="fact", subject="deploy day"
    )
    graph.query(
        "MATCH (a:Belief {id: $a}), (b:Belief {id: $b}) CREATE (a)-[:CONFLICTS_WITH]->(b)", a=a, b=b
    )
    result = memory.recall("deploys on Fridays", project="p")
    assert [(c.a, c.b) for c in result.conflicts] == [tuple(sorted((a, b)))]
    assert "Unresolved conflicts" in result.rendered


def test_isolation(make_memory: Callable[..., GraphMem]) -> None:
    alice, bob = make_memory(), make_memory()
    alice.believe("Alice's secret deploy key rotates weekly", project="p", type="fact")
    alice.remember({"project": "p", "title": "Alice rotated the deploy key"})
    assert bob.recall("secret deploy key rotates", project="p").items == []
    assert bob.search_episodes("rotated the deploy key").items == []


def test_two_clients_see_each_others_writes(make_memory: Callable[..., GraphMem]) -> None:
    writer = make_memory()
    reader = make_memory(writer.principal)
    assert reader.recall("feature flags default off").items == []
    flag = writer.believe("Feature flags default to off in production", project="p", type="pattern")
    assert [item.id for item in reader.recall("feature flags default off").items] == [flag]
    newer = writer.supersede(flag, "Feature flags default to off everywhere", reason="policy")
    assert flag not in [item.id for item in reader.recall("feature flags default off").items]
    writer.retire(newer, "flags are gone")
    assert reader.recall("feature flags default off").items == []


@pytest.mark.parametrize(
    "query",
    ['title:(x OR y) AND "z"~2 \\\\', "'}) MATCH (n) DETACH DELETE n //", "x" * 10_000],
)
def test_hostile_and_long_queries_are_answered(memory: GraphMem, query: str) -> None:
    memory.believe("Match nodes carefully", project="p", type="fact")
    result = memory.recall(query, project="p")
    assert result.trace_id


def test_empty_query_and_bad_arms_are_typed_errors(memory: GraphMem) -> None:
    with pytest.raises(InvalidInput) as caught:
        memory.recall("   ")
    assert caught.value.field == "query"
    with pytest.raises(InvalidInput) as caught:
        memory.recall("x", arms=["psychic"])
    assert caught.value.field == "arms.0"


def test_search_episodes_by_meaning_and_project(memory: GraphMem) -> None:
    flaky = memory.remember(
        {
            "project": "billing",
            "title": "Fixed the flaky invoice test",
            "text": "Decimal was built from floats",
        }
    )
    memory.remember({"project": "web", "title": "Upgraded the CSS framework"})
    result = memory.search_episodes("why did the invoice test fail sometimes?")
    assert result.items[0].id == flaky
    assert memory.search_episodes("CSS framework", project="billing").items == []


def test_cli_recall_search_trace(neo4j_env: dict[str, str]) -> None:
    import json

    from typer.testing import CliRunner

    from graphmem.cli import app

    runner = CliRunner()
    belief = runner.invoke(
        app,
        ["believe", "Logs are JSON lines", "--project", "p", "--type", "pattern", "--json"],
        env=neo4j_env,
    )
    belief_id = json.loads(belief.stdout)["id"]
    result = runner.invoke(app, ["recall", "log format", "--project", "p", "--json"], env=neo4j_env)
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert set(shown) == {"items", "conflicts", "withheld", "flagged", "trace_id"}
    assert shown["items"][0]["id"] == belief_id
    text = runner.invoke(app, ["recall", "log format", "--project", "p"], env=neo4j_env).stdout
    assert "Logs are JSON lines" in text and belief_id in text
    user_view = json.loads(
        runner.invoke(app, ["trace", shown["trace_id"], "--json"], env=neo4j_env).stdout
    )
    operator_view = json.loads(
        runner.invoke(
            app, ["trace", shown["trace_id"], "--operator", "--json"], env=neo4j_env
        ).stdout
    )
    assert not any(key.startswith("operator_") for key in user_view)
    assert "operator_arm_ranks" in operator_view
    missing = runner.invoke(app, ["recall", "x"], env=neo4j_env)
    assert missing.exit_code == 1 and "--all-projects" in missing.stderr
    episodes = runner.invoke(app, ["search", "log format", "--json"], env=neo4j_env)
    assert episodes.exit_code == 0 and json.loads(episodes.stdout)["items"] == []


def test_graph_arm_adds_session_neighbours(memory: GraphMem) -> None:
    session = memory.remember({"project": "p", "kind": "session", "title": "Weekly sync"})
    turns = [
        "Ana: did anyone check the flaky upload test?",
        "Ben: yes, it fails when the bucket region is eu-west-3",
        "Ana: great, thanks",
        "Cy: unrelated, lunch at noon?",
    ]
    ids = memory.remember_many(
        [{"project": "p", "kind": "message", "title": t, "parent": session} for t in turns]
    )
    plain = memory.search_episodes("flaky upload test", arms=["lexical"])
    assert ids[1] not in [item.id for item in plain.items]
    expanded = memory.search_episodes("flaky upload test", arms=["lexical", "graph"])
    found = [item.id for item in expanded.items]
    assert found[0] == ids[0] and ids[1] in found
    assert expanded.items[found.index(ids[1])].arm_ranks == {"graph": 1}
    with pytest.raises(InvalidInput):
        memory.search_episodes("x", arms=["structured"])  # beliefs only


def test_structured_arm_matches_paths_symbols_and_subjects(
    memory: GraphMem, tmp_path: Path
) -> None:
    (tmp_path / "billing").mkdir()
    (tmp_path / "billing" / "invoice.py").write_text(
        "class Invoice:\n    def total(self):\n        return 1\n"
    )
    memory.index_code(tmp_path, "p")
    key = "python:billing/invoice.py::Invoice.total#method"
    anchored = memory.believe("Totals are computed lazily", project="p", type="fact", anchor=key)
    about = memory.believe(
        "Use UTC everywhere", project="p", type="preference", subject="timezones"
    )
    memory.believe("Unrelated lesson about queues", project="p", type="lesson")
    by_path = memory.recall("zzz", project="p", paths=["billing/invoice.py"], arms=["structured"])
    assert [item.id for item in by_path.items] == [anchored]
    by_name = memory.recall("zzz", project="p", symbols=["Invoice.total"], arms=["structured"])
    assert [item.id for item in by_name.items] == [anchored]
    by_subject = memory.recall("zzz", project="p", subjects=["timezones"], arms=["structured"])
    assert [item.id for item in by_subject.items] == [about]


def test_belief_graph_arm_follows_shared_subject_and_provenance(memory: GraphMem) -> None:
    episode = memory.remember({"project": "p", "title": "Incident review"})
    seed = memory.believe(
        "Queue consumers must be idempotent",
        project="p",
        type="lesson",
        subject="queues",
        evidence=[episode],
    )
    same_subject = memory.believe(
        "Dead letters are retried hourly", project="p", type="fact", subject="queues"
    )
    same_episode = memory.believe(
        "Alerts page the on-call engineer", project="p", type="fact", evidence=[episode]
    )
    plain = memory.recall("idempotent consumers", project="p", arms=["lexical"])
    assert [item.id for item in plain.items] == [seed]
    expanded = memory.recall("idempotent consumers", project="p", arms=["lexical", "graph"])
    found = [item.id for item in expanded.items]
    assert found[0] == seed and {same_subject, same_episode} <= set(found)


def test_snapshot_puts_durable_beliefs_first_within_the_caps(memory: GraphMem) -> None:
    preference = memory.believe(
        "Prefer small pull requests", project="a", type="preference", confidence=0.9
    )
    user_fact = memory.believe(
        "The staging database is shared", project="b", type="fact", authority="user", confidence=0.6
    )
    local_elsewhere = memory.believe("Deploy with make ship", project="c", type="decision")
    facts = [
        memory.believe(
            f"Service {i} listens on port {8000 + i}", project="b", type="fact", confidence=0.5
        )
        for i in range(30)
    ]
    child = memory.snapshot("b", "child")
    ids = [item.id for item in child.items]
    assert len(ids) == 15
    assert ids[:2] == [preference, user_fact]  # durable first, by weight
    assert local_elsewhere not in ids
    assert set(ids[2:]) <= set(facts)
    assert child.rendered == memory.snapshot("b", "child").rendered
    interactive = memory.snapshot("b")
    assert len(interactive.items) == 32 and len(interactive.rendered) / 4 <= 1_500
    with pytest.raises(InvalidInput):
        memory.snapshot("b", "huge")


def test_time_arm_ranks_the_episodes_of_the_named_time(memory: GraphMem) -> None:
    def on(month: int) -> datetime:
        return datetime(2023, month, 10, 15, 0, tzinfo=UTC)

    ids = {
        month: memory.remember(
            {
                "project": "trips",
                "title": f"trip note {month}",
                "text": "we went hiking in the mountains with the team",
                "started_at": on(month),
            }
        )
        for month in (3, 5, 8)
    }
    memory.remember(
        {"project": "trips", "title": "latest", "text": "planning", "started_at": on(11)}
    )
    named = memory.search_episodes("hiking in May 2023", project="trips", arms=["time"])
    assert [hit.id for hit in named.items] == [ids[5]]
    # Relative to the newest episode (November 2023), never to the clock.
    relative = memory.search_episodes("hiking last August", project="trips", arms=["time"])
    assert [hit.id for hit in relative.items] == [ids[8]]
    fused = memory.search_episodes("hiking in May 2023", project="trips")
    assert fused.items[0].id == ids[5] and fused.items[0].arm_ranks.get("time") == 1
    unnamed = memory.search_episodes("hiking in the mountains", project="trips", arms=["time"])
    assert unnamed.items == []
    with pytest.raises(InvalidInput, match="time"):
        memory.recall("hiking in May 2023", project="trips", arms=["time"])


def test_a_turn_gains_from_a_strong_hit_next_to_it(memory: GraphMem) -> None:
    sessions = memory.remember_many(
        [
            {"project": "p", "kind": "session", "title": "Session one"},
            {"project": "p", "kind": "session", "title": "Session two"},
        ]
    )
    pinned = "we pinned the ledger version"
    texts = [
        ("the flaky billing test retried the ledger export twice", 0),
        (pinned, 0),
        ("lunch came late", 0),
        (pinned, 0),
        (pinned, 1),
    ]
    strong, beside, _, further, elsewhere = memory.remember_many(
        [
            {"title": "turn", "text": text, "project": "p", "kind": "message"}
            | {"parent": sessions[session]}
            for text, session in texts
        ]
    )
    hits = memory.search_episodes(
        "flaky billing ledger export", project="p", k=10, arms=["lexical"]
    )
    score = {hit.id: hit.score for hit in hits.items}
    assert score[strong] == max(score.values())
    # The same text: right after the strong hit, two turns after it, in another session.
    assert score[beside] > score[further] == score[elsewhere] > 0


def test_the_reply_to_a_question_gains_from_it(memory: GraphMem) -> None:
    sessions = memory.remember_many(
        [
            {"project": "p", "kind": "session", "title": "Session one"},
            {"project": "p", "kind": "session", "title": "Session two"},
        ]
    )
    answer = "It went to 4.2 after the outage."
    texts = ["Which ledger version did you pin?", answer, answer, answer]
    parents = [sessions[0], sessions[0], sessions[0], sessions[1]]
    asked, reply, later, elsewhere = memory.remember_many(
        [
            {"project": "p", "kind": "message", "title": "turn", "text": text, "parent": parent}
            for text, parent in zip(texts, parents, strict=True)
        ]
    )
    hits = memory.search_episodes("ledger version outage", project="p", k=10, arms=["lexical"])
    score = {hit.id: hit.score for hit in hits.items}
    # The same text gains after the question it answers; not after an answer, or alone.
    assert score[reply] > score[later] >= score[elsewhere] > 0
    assert score[asked] > 0


def test_the_trace_records_how_far_behind_the_views_were(memory: GraphMem) -> None:
    memory.believe_many(
        [
            {"statement": f"Worker {i} drains the mail queue", "project": "p", "type": "fact"}
            for i in range(4)
        ]
    )
    first = memory.recall("which worker drains the mail queue?", project="p")
    second = memory.recall("which worker drains the mail queue?", project="p")
    behind = [
        memory.get_trace(result.trace_id, operator=True)["operator_view_lag"]
        for result in (first, second)
    ]
    assert behind == [4, 0]  # four created events caught up on, then none


def test_a_recall_catches_up_one_slice_and_the_rest_follows_in_the_background(
    neo4j_settings: ConnectionSettings, tmp_path: Path
) -> None:
    def client(name: str, principal: str | None = None) -> GraphMem:
        return GraphMem(
            principal or f"test-{name}-{tmp_path.name}",
            uri=neo4j_settings.uri,
            user=neo4j_settings.user,
            password=neo4j_settings.password,
            data_dir=tmp_path / name,
            embedder=HashedEmbedder(),
        )

    with client("writer") as writer, client("reader", writer.principal) as reader:
        reader.recall("anything", project="p")  # the reader's views exist, caught up
        total = CATCH_UP_SLICE * 2 + 500
        writer.believe_many(
            [
                {"statement": f"Shard {i} lives in zone {i % 7}", "project": "p", "type": "fact"}
                for i in range(total)
            ]
        )
        first = reader.recall("which zone is shard 4499 in?", project="p")
        lags = [reader.get_trace(first.trace_id, operator=True)["operator_view_lag"]]
        assert lags == [CATCH_UP_SLICE]  # one slice before answering, not all 4,500
        for _ in range(200):  # the background takes the rest; a recall adds a slice too
            result = reader.recall("which zone is shard 4499 in?", project="p")
            lags.append(reader.get_trace(result.trace_id, operator=True)["operator_view_lag"])
            if lags[-1] == 0:
                break
            time.sleep(0.05)
        assert lags[-1] == 0 and all(0 <= lag <= CATCH_UP_SLICE for lag in lags)
        assert "Shard 4499 lives" in result.items[0].statement
