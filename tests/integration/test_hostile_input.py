"""Cypher- and Lucene-looking text is stored verbatim; bad values get typed errors."""

from __future__ import annotations

import pytest

from graphmem import GraphMem, InvalidInput
from tests.integration.conftest import Graph

HOSTILE = [
    "'}) MATCH (n) DETACH DELETE n //",
    '"}) WITH 1 AS x CALL db.clearQueryCaches() //',
    "$principal {principal: 'other'}",
    'title:(foo OR bar) AND NOT baz~2 \\\\ "quoted" ^3 [a TO z] *',
    "`backticks` ; DROP CONSTRAINT belief_id",
    "emoji ✓ ünïcödé 中文 \t tabs \n newlines",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_injection_looking_text_is_stored_verbatim(
    memory: GraphMem, graph: Graph, text: str
) -> None:
    sentinel = graph.query(
        "CREATE (s:Sentinel {principal: $p}) RETURN elementId(s) AS id", p=memory.principal
    )[0]["id"]
    episode = memory.remember({"project": "p", "title": text, "text": text, "observations": [text]})
    belief = memory.believe(text, project="p", type="fact", subject=text[:200], evidence=[episode])
    stored = memory.get_belief(belief)
    assert stored.statement == text and stored.subject == text[:200]
    assert memory.get_episode(episode).observations == [text]
    # Nothing in the text ran: the sentinel, the nodes and the schema are all intact.
    assert graph.query("MATCH (s) WHERE elementId(s) = $id RETURN s", id=sentinel)
    assert graph.count(memory.principal, "Belief") == 1
    assert graph.count(memory.principal, "Episode") == 1
    assert graph.query("SHOW CONSTRAINTS YIELD name WHERE name = 'belief_id' RETURN name")
    graph.query("MATCH (s) WHERE elementId(s) = $id DELETE s", id=sentinel)


@pytest.mark.parametrize(
    ("fields", "field", "rule"),
    [
        ({"statement": "a\x00b"}, "statement", "value_error"),
        ({"statement": "x" * 1_000_000}, "statement", "string_too_long"),
        ({"statement": ""}, "statement", "string_too_short"),
        ({"statement": "   "}, "statement", "value_error"),
        ({"statement": 42}, "statement", "string_type"),
        ({"confidence": "0.5"}, "confidence", "float_type"),
        ({"confidence": -0.1}, "confidence", "greater_than_equal"),
        ({"confidence": float("nan")}, "confidence", "finite_number"),
        ({"type": "opinion"}, "type", "enum"),
        ({"project": "../etc"}, "project", "string_pattern_mismatch"),
        ({"evidence": ["not-an-id"]}, "evidence.0.episode_id", "string_pattern_mismatch"),
    ],
)
def test_bad_values_get_typed_errors_and_write_nothing(
    memory: GraphMem, graph: Graph, fields: dict[str, object], field: str, rule: str
) -> None:
    row = {"statement": "ok", "project": "p", "type": "fact", **fields}
    with pytest.raises(InvalidInput) as caught:
        memory.believe_many([row])
    assert (caught.value.field, caught.value.rule) == (field, rule)
    assert graph.count(memory.principal, "Belief") == 0
