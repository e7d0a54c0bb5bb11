"""The input-limits policy: what any JSON graphmem reads may hold (pure, no database)."""

from __future__ import annotations

import json

import pytest

from graphmem import limits
from graphmem.errors import InvalidInput


def _refused(document: str | bytes) -> tuple[str, str]:
    with pytest.raises(InvalidInput) as refused:
        limits.loads(document, "FILE")
    return str(refused.value.field), str(refused.value.rule)


def test_a_document_within_the_limits_parses_as_json_does() -> None:
    document = {"a": [1, -(2**63), 2**63 - 1, 1.5, "text ✓", None, True], "b": {"c": "d"}}
    assert limits.loads(json.dumps(document), "FILE") == document
    assert limits.loads(json.dumps(document).encode(), "FILE") == document


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ('{"n": ' + "9" * 20 + "}", ("FILE.n", "integer_size")),
        ('{"n": [0, -' + "1" * 5_000 + "]}", ("FILE.n.1", "integer_size")),
        ('{"s": "\\ud800"}', ("FILE.s", "utf8")),
        (b'{"s": "caf\xe9"}', ("FILE.s", "utf8")),
        (b'{"caf\xe9": 1}', ("FILE (a key)", "utf8")),
        ('{"a": ' + "[" * 40 + "]" * 40 + "}", ("FILE.a", "depth")),
        ("[" * 100_000, ("FILE", "depth")),
        ('{"n": NaN}', ("FILE", "json")),
        ('{"n": Infinity}', ("FILE", "json")),
        ("not json", ("FILE", "json")),
        ('{"s": "' + "x" * (limits.MAX_FIELD_BYTES + 1) + '"}', ("FILE.s", "field_size")),
    ],
)
def test_a_breach_is_refused_naming_its_field_and_rule(
    document: str | bytes, expected: tuple[str, str]
) -> None:
    assert _refused(document) == expected


def test_the_depth_limit_is_inclusive() -> None:
    at_limit = "[" * limits.MAX_DEPTH + "]" * limits.MAX_DEPTH
    assert limits.loads(at_limit, "FILE") is not None
    assert _refused("[" + at_limit + "]") == ("FILE", "depth")


def test_a_document_larger_than_a_line_may_be_is_refused_before_parsing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(limits, "MAX_LINE_BYTES", 10)
    assert _refused(b'["12345678"]') == ("FILE", "size")
    assert _refused('["é234567"]') == ("FILE", "size")  # 11 bytes, 10 characters


def test_parse_leaves_the_value_to_check() -> None:
    value = limits.parse('{"id": 7, "n": ' + "9" * 30 + "}", "message")
    assert value["id"] == 7
    with pytest.raises(InvalidInput) as refused:
        limits.check(value, "message")
    assert refused.value.details["field"] == "message.n"


def test_undecodable_bytes_become_lone_surrogates_until_checked() -> None:
    assert limits.decode(b"ok \xff") == "ok \udcff"
    with pytest.raises(InvalidInput) as refused:
        limits.check_text(limits.decode(b"ok \xff"), "title")
    assert refused.value.details == {"field": "title", "rule": "utf8"}
