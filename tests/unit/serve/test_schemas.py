"""The MCP tools' argument models: what they accept, what they refuse, and the schemas."""

from __future__ import annotations

import pytest

from graphmem.errors import InvalidInput
from graphmem.serve import schemas
from graphmem.serve.tools import TOOLS
from graphmem.validation import parse

CLIENT_TOOLS = {
    "remember",
    "believe",
    "recall",
    "search_episodes",
    "snapshot",
    "supersede",
    "retire",
    "correct",
    "forget",
    "consolidate",
    "anchor_status",
    "index_code",
    "overview",
    "changes",
    "cite",
    "hints",
    "sessions",
    "session",
}
BELIEF_ID = "01a230d6-c141-7277-87f4-60f7710e9f0a"


def test_every_tool_the_issue_names_exists_with_schemas() -> None:
    assert {tool.name for tool in TOOLS} == CLIENT_TOOLS
    for tool in TOOLS:
        assert tool.arguments.model_json_schema()["type"] == "object"
        assert tool.output.model_json_schema(mode="serialization")["type"] == "object"
        assert tool.description


def test_argument_names_are_the_client_parameter_names() -> None:
    believe = set(schemas.BelieveArguments.model_fields)
    assert {"statement", "project", "type", "subject", "confidence", "evidence"} <= believe
    recall = set(schemas.RecallArguments.model_fields)
    assert {"query", "project", "k", "types", "as_of", "arms", "decay"} <= recall


def test_project_may_be_left_to_the_server_default() -> None:
    args = parse(schemas.BelieveArguments, {"statement": "s", "type": "fact"})
    assert args.project is None


@pytest.mark.parametrize(
    ("model", "arguments", "field", "rule"),
    [
        (schemas.BelieveArguments, {"statement": 5, "type": "fact"}, "statement", "string_type"),
        (schemas.BelieveArguments, {"statement": "s", "type": "opinion"}, "type", "enum"),
        (
            schemas.BelieveArguments,
            {"statement": "x" * 1_000_000, "type": "fact"},
            "statement",
            "string_too_long",
        ),
        (schemas.BelieveArguments, {"statement": "a\x00b", "type": "fact"}, "statement", None),
        (schemas.BelieveArguments, {"statement": "s", "type": "fact", "bogus": 1}, "bogus", None),
        (schemas.RecallArguments, {"query": "q", "k": "ten"}, "k", "int_type"),
        (schemas.RecallArguments, {"query": "q", "all_projects": "yes"}, "all_projects", None),
        (schemas.RetireArguments, {"belief_id": "nope", "reason": "r"}, "belief_id", None),
        (schemas.SnapshotArguments, {"profile": "huge"}, "profile", "enum"),
        (schemas.RememberArguments, {"title": "t", "observations": "one"}, "observations", None),
    ],
)
def test_bad_arguments_name_the_field_and_rule(
    model: type[schemas.BaseModel], arguments: dict[str, object], field: str, rule: str | None
) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse(model, arguments)
    assert caught.value.field == field
    if rule is not None:
        assert caught.value.rule == rule


def test_supersede_takes_a_statement_or_changed_fields() -> None:
    plain = parse(schemas.SupersedeArguments, {"old_id": BELIEF_ID, "new": "s2", "reason": "r"})
    assert plain.new == "s2"
    changed = parse(
        schemas.SupersedeArguments,
        {"old_id": BELIEF_ID, "new": {"statement": "s2", "confidence": 0.9}, "reason": "r"},
    )
    assert not isinstance(changed.new, str) and changed.new.confidence == 0.9


def test_changes_takes_a_span_a_date_or_a_seq_and_known_kinds() -> None:
    assert parse(schemas.ChangesArguments, {"since": 12}).since == 12
    assert parse(schemas.ChangesArguments, {"since": "2026-11-01"}).since == "2026-11-01"
    assert parse(schemas.ChangesArguments, {}).since == "7d"
    with pytest.raises(InvalidInput) as refused:
        parse(schemas.ChangesArguments, {"kinds": ["learned", "gossip"]})
    assert refused.value.details["field"].startswith("kinds")
    with pytest.raises(InvalidInput):
        parse(schemas.ChangesArguments, {"since": -1})
