"""Every shipped Browser query runs on demo memory, returns rows, and only its principal's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver, GraphDatabase, Record
from neo4j.graph import Node, Relationship
from neo4j.graph import Path as GraphPath

from graphmem import GraphMem
from graphmem.settings import ConnectionSettings
from graphmem.store.browser_queries import BrowserQuery, browser_queries
from tests.integration.browser.seed import Seeded, seed

QUERIES = browser_queries()


@pytest.fixture
def driver(neo4j_settings: ConnectionSettings) -> Iterator[Driver]:
    handle = GraphDatabase.driver(
        neo4j_settings.uri, auth=(neo4j_settings.user, neo4j_settings.password)
    )
    yield handle
    handle.close()


@pytest.fixture
def two_principals(make_memory: Callable[..., GraphMem], tmp_path: Path) -> tuple[Seeded, Seeded]:
    """The same demo memory for two principals: every query must keep them apart."""
    first = seed(make_memory(), tmp_path / "first")
    second = seed(make_memory(), tmp_path / "second")
    return first, second


def _nodes(value: Any) -> Iterator[Node]:
    if isinstance(value, Node):
        yield value
    elif isinstance(value, Relationship):
        yield from (n for n in value.nodes if n is not None)
    elif isinstance(value, GraphPath):
        yield from value.nodes
    elif isinstance(value, list):
        for item in value:
            yield from _nodes(item)


def _owner(node: Node) -> str:
    if "Principal" in node.labels:
        return str(node["id"])
    return str(node["principal"])


def _run(driver: Driver, query: BrowserQuery, parameters: dict[str, str]) -> list[Record]:
    records, _, _ = driver.execute_query(query.text, parameters, database_="neo4j")
    return records


@pytest.mark.parametrize("query", QUERIES, ids=[q.name for q in QUERIES])
def test_query_returns_only_its_principals_graph(
    query: BrowserQuery, driver: Driver, two_principals: tuple[Seeded, Seeded]
) -> None:
    for seeded in two_principals:
        records = _run(driver, query, seeded.parameters(query))
        assert records, f"{query.name} returned no rows for {seeded.principal}"
        nodes = [node for record in records for value in record.values() for node in _nodes(value)]
        assert len(nodes) > 1, f"{query.name} draws no graph"
        assert {_owner(node) for node in nodes} == {seeded.principal}


@pytest.mark.parametrize("name", ["episode", "belief"])
def test_another_principals_id_finds_nothing(
    name: str, driver: Driver, two_principals: tuple[Seeded, Seeded]
) -> None:
    first, second = two_principals
    query = next(q for q in QUERIES if q.name == name)
    foreign = second.episode_id if name == "episode" else second.belief_id
    assert _run(driver, query, {"principal": first.principal, "id": foreign}) == []
