"""overview(): each project's memory, principal-scope beliefs, shared subjects."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from graphmem import GraphMem
from graphmem.cli import app
from graphmem.demo import run_demo


def test_overview_counts_each_project_of_the_demo(memory: GraphMem, tmp_path: Path) -> None:
    result = run_demo(memory, lambda line: None, tmp_path / "billing-api")
    view = memory.overview()
    assert view.principal == memory.principal
    billing, checkout = view.projects
    assert (billing.name, checkout.name) == ("billing-api", "checkout-web")
    assert (billing.episodes, checkout.episodes) == (4, 2)
    live = memory.list_beliefs(project="billing-api")
    assert billing.live_beliefs == len(live) == sum(billing.beliefs_by_type.values())
    assert billing.beliefs_by_type["fact"] == sum(1 for b in live if b.type == "fact")
    assert sum(billing.beliefs_by_state.values()) == billing.live_beliefs
    assert billing.promoted == checkout.promoted == 1
    assert (billing.drifted, billing.vanished) == (1, 0)  # the demo leaves its edit
    assert (checkout.drifted, checkout.open_conflicts) == (0, 0)
    assert billing.last_activity is not None and billing.last_activity.tzinfo is not None

    (cents,) = view.principal_beliefs
    assert cents.id == result.beliefs["cents"]
    assert cents.origins == ["billing-api", "checkout-web"]
    assert cents.confidence_band in {"low", "medium", "high"}
    assert view.recurring_subjects == []  # each demo subject is one project's


def test_overview_sees_conflicts_subjects_and_only_its_principal(
    make_memory: Callable[..., GraphMem],
) -> None:
    memory, other = make_memory(), make_memory()
    other.believe("Other principal's fact", project="web", type="fact", subject="deploy day")
    memory.believe("Thursday", project="web", type="fact", subject="deploy day", authority="user")
    memory.believe("Deploys are on Thursday", project="api", type="fact", subject="Deploy Day")
    memory.consolidate(
        memory.remember(
            {"project": "web", "kind": "task", "title": "t", "observations": ["deploy day: Monday"]}
        )
    )
    view = memory.overview()
    assert [p.name for p in view.projects] == ["api", "web"]
    web = view.projects[1]
    assert web.open_conflicts == 1 and web.episodes == 1
    (subject,) = view.recurring_subjects
    assert subject.projects == ["api", "web"] and subject.beliefs == 3
    assert subject.subject.lower() == "deploy day"
    assert view.principal_beliefs == []
    assert [p.name for p in other.overview().projects] == ["web"]


def test_cli_overview_text_and_json(
    memory: GraphMem, neo4j_env: dict[str, str], tmp_path: Path
) -> None:
    run_demo(memory, lambda line: None, tmp_path / "billing-api")
    env = {**neo4j_env, "GRAPHMEM_PRINCIPAL": memory.principal}
    result = CliRunner().invoke(app, ["overview", "--json"], env=env)
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert [p["name"] for p in shown["projects"]] == ["billing-api", "checkout-web"]
    assert shown["projects"][0]["last_activity"].endswith("Z")
    assert set(shown) == {"principal", "projects", "principal_beliefs", "recurring_subjects"}
    text = CliRunner().invoke(app, ["overview"], env=env).stdout
    assert "billing-api" in text and "1 drifted, 0 vanished" in text
    assert "Money amounts are stored as integer cents" in text
