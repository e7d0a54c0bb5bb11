"""Anchor states and weights (design §4 table) and candidate ranking."""

from __future__ import annotations

import pytest

from graphmem.anchors.state import ANCHOR_WEIGHT, _rank_candidates, classify
from graphmem.models import AnchorState
from graphmem.store.codegraph import NearbySymbol

KEY = "python:billing/invoice.py::Invoice.total#method"


@pytest.mark.parametrize(
    ("key", "stored", "kwargs", "state"),
    [
        (None, None, {}, AnchorState.UNANCHORED),
        (KEY, None, {}, AnchorState.UNVERIFIABLE),
        ("sql:db/schema.sql::users#type", "h", {}, AnchorState.UNVERIFIABLE),
        (KEY, "h", {"project_indexed": False}, AnchorState.UNVERIFIABLE),
        (KEY, "h", {"file_error": "syntax error"}, AnchorState.UNVERIFIABLE),
        (KEY, "h", {"current_hash": None}, AnchorState.VANISHED),
        (KEY, "h", {"current_hash": "h"}, AnchorState.VERIFIED),
        (KEY, "h", {"current_hash": "other"}, AnchorState.DRIFTED),
    ],
)
def test_classify(
    key: str | None, stored: str | None, kwargs: dict[str, object], state: AnchorState
) -> None:
    arguments = {"project_indexed": True, "current_hash": None, "file_error": None, **kwargs}
    assert classify(key, stored, **arguments)[0] is state  # type: ignore[arg-type]


def test_penalties_match_the_design_and_never_go_below_the_floor() -> None:
    assert ANCHOR_WEIGHT == {
        AnchorState.UNANCHORED: 1.0,
        AnchorState.VERIFIED: 1.0,
        AnchorState.VANISHED: 0.5,
        AnchorState.UNVERIFIABLE: 0.4,
        AnchorState.DRIFTED: 0.25,
    }
    assert min(ANCHOR_WEIGHT.values()) == 0.25


def test_candidates_rank_same_content_then_name_then_similar() -> None:
    rows = [
        {
            "key": "python:billing/invoice.py::Invoice.grand_total#method",
            "qualname": "Invoice.grand_total",
            "reason": "same file",
        },
        {
            "key": "python:billing/invoice.py::Invoice.__init__#constructor",
            "qualname": "Invoice.__init__",
            "reason": "same file",
        },
        {
            "key": "python:billing/other.py::Other.total#method",
            "qualname": "Other.total",
            "reason": "same name",
        },
        {
            "key": "python:billing/moved.py::Invoice.total#method",
            "qualname": "Invoice.total",
            "reason": "same content",
        },
        {
            "key": "python:billing/moved.py::Invoice.total#method",
            "qualname": "Invoice.total",
            "reason": "same name",
        },
    ]
    ranked = _rank_candidates(KEY, [NearbySymbol(**row) for row in rows])
    assert [(c.key.split("::")[1], c.reason) for c in ranked] == [
        ("Invoice.total#method", "same content"),
        ("Other.total#method", "same name"),
        ("Invoice.grand_total#method", "similar name"),
    ]
