"""The export format without a database: line validation, ranks, byte stability, ids."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem.errors import InvalidInput
from graphmem.models import ID_PATTERN
from graphmem.store.transfer import EventRow, LinkRow, MemoryRows, NodeRow, ProjectRow
from graphmem.transfer.exporter import export_lines
from graphmem.transfer.format import decode_props, encode_props
from graphmem.transfer.importer import build_rows, derived_id, parse_export

EPISODE = "01a231a7-e110-7d8f-8028-5d0c7520609d"
BELIEF = "01a231a7-e1b2-7433-9ddc-8b98e3267761"
AT = datetime(2026, 12, 1, 12, 0, 0, 123456, tzinfo=UTC)


def rows() -> MemoryRows:
    """A tiny memory with store seqs far apart (another principal wrote in between)."""
    return MemoryRows(
        principal_props={"created_at": AT},
        projects=[ProjectRow("billing", {"created_at": AT})],
        episodes=[
            NodeRow(
                EPISODE,
                100,
                {"project": "billing", "title": "t", "paths": [], "sensitivity": "internal"},
            )
        ],
        beliefs=[
            NodeRow(
                BELIEF,
                250,
                {
                    "statement": "s",
                    "origins": ["billing"],
                    "confidence": 1.0,
                    "cited_seq": 900,
                    "sensitivity": "internal",
                },
            )
        ],
        links=[LinkRow("derived_from", BELIEF, EPISODE, {"role": "observation"})],
        events=[
            EventRow(100, {"type": "episode.created", "at": AT}, EPISODE, "episode"),
            EventRow(250, {"type": "belief.created", "node_id": BELIEF}, BELIEF, "belief"),
        ],
    )


def lines() -> list[str]:
    return export_lines("alice", None, rows(), "0.1.0")[0]


def test_seqs_become_dense_ranks_and_times_are_tagged() -> None:
    records = [json.loads(line) for line in lines()]
    assert records[0]["seqs"] == 3  # 100, 250 and the cited 900
    assert records[0]["counts"]["belief"] == 1
    belief = next(r for r in records[1:] if r["kind"] == "belief")
    assert belief["seq"] == 2 and belief["props"]["cited_seq"] == 3
    assert records[1]["props"]["created_at"] == {"datetime": "2026-12-01T12:00:00.123456+00:00"}


def test_parsing_and_rebuilding_gives_the_same_lines_again() -> None:
    parsed = parse_export(line + "\n" for line in lines())
    rebuilt = build_rows(parsed, {EPISODE: EPISODE, BELIEF: BELIEF}, base=5_000)
    assert rebuilt.beliefs[0].seq == 5_002 and rebuilt.beliefs[0].props["cited_seq"] == 5_003
    assert export_lines("alice", None, rebuilt, "0.1.0")[0] == lines()


def test_props_round_trip() -> None:
    props = {"at": AT, "paths": ["a", "b"], "n": 3, "x": 0.5, "flag": True, "none": None}
    encoded = encode_props(props)  # type: ignore[arg-type]
    assert "none" not in encoded
    assert decode_props(encoded, 1) == {k: v for k, v in props.items() if v is not None}


def _with(number: int, change: Any) -> list[str]:
    edited = lines()
    value = change(json.loads(edited[number - 1]))
    edited[number - 1] = value if isinstance(value, str) else json.dumps(value)
    return edited


@pytest.mark.parametrize(
    ("number", "change", "field", "rule"),
    [
        (1, lambda h: {**h, "version": 2}, "version", "version"),
        (1, lambda h: {**h, "format": "other"}, "format", "format"),
        (1, lambda h: {k: v for k, v in h.items() if k != "principal"}, "principal", "missing"),
        (3, lambda _: "{not json", "line", "json"),
        (3, lambda _: "[1, 2]", "line", "json"),
        (3, lambda r: {**r, "kind": "spaceship"}, "kind", "union_tag_invalid"),
        (3, lambda r: {k: v for k, v in r.items() if k != "id"}, "id", "missing"),
        (3, lambda r: {**r, "id": "not-an-id"}, "id", "string_pattern_mismatch"),
        (3, lambda r: {**r, "seq": 99}, "seq", "rank"),
        (
            3,
            lambda r: {**r, "props": {**r["props"], "principal": "bob"}},
            "props.principal",
            "reserved",
        ),
        (3, lambda r: {**r, "props": {"title": "t"}}, "props.project", "missing"),
        (3, lambda r: {**r, "parent": BELIEF}, "parent", "reference"),
        (4, lambda r: {**r, "props": {**r["props"], "cited_seq": 0}}, "props.cited_seq", "rank"),
        (5, lambda r: {**r, "target": BELIEF}, "target", "reference"),
        (
            6,
            lambda r: {**r, "props": {**r["props"], "at": {"datetime": "noon"}}},
            "props.at",
            "datetime",
        ),
        (7, lambda r: {**r, "about_kind": None}, "about_kind", "about"),
    ],
)
def test_a_bad_line_names_its_number_and_field(
    number: int, change: Any, field: str, rule: str
) -> None:
    with pytest.raises(InvalidInput) as raised:
        parsed = parse_export(_with(number, change))
        build_rows(parsed, {EPISODE: EPISODE, BELIEF: BELIEF}, base=0)
    assert raised.value.details["line"] == number
    assert raised.value.details["field"] == field
    assert raised.value.details["rule"] == rule


def test_a_repeated_event_seq_and_a_missing_line_are_refused() -> None:
    repeated = [*lines(), lines()[-1]]
    with pytest.raises(InvalidInput) as raised:
        parse_export(repeated)
    assert raised.value.details["field"] == "seq" and raised.value.details["line"] == 8
    with pytest.raises(InvalidInput) as raised:
        parse_export(lines()[:-1])
    assert raised.value.details["field"] == "counts.event"
    with pytest.raises(InvalidInput) as raised:
        parse_export([])
    assert raised.value.details["line"] == 1


def test_derived_ids_are_stable_valid_and_keep_the_time_part() -> None:
    new = derived_id(BELIEF, "bob")
    assert new == derived_id(BELIEF, "bob") != derived_id(BELIEF, "carol")
    assert re.fullmatch(ID_PATTERN, new) and new[:19] == BELIEF[:19] and new != BELIEF
