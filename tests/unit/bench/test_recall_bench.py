"""The recall benchmark's loaders and metrics (no database)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from graphmem.bench.recall import _repair, load_generic, load_locomo, metrics

DATA = Path(__file__).resolve().parents[2] / "data"


def test_metrics() -> None:
    row = metrics(["x", "a", "y", "b"], ["a", "b", "c"])
    assert row["R@5"] == pytest.approx(2 / 3) and row["R@10"] == pytest.approx(2 / 3)
    assert (row["hit@10"], row["all@10"], row["MRR"]) == (1.0, 0.0, 0.5)
    ideal = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert row["NDCG@10"] == pytest.approx((1 / math.log2(3) + 1 / math.log2(5)) / ideal)
    assert metrics([], ["a"])["MRR"] == 0.0


@pytest.mark.parametrize(
    ("raw", "fixed"),
    [
        ("D8:6; D9:17", ["D8:6", "D9:17"]),
        ("D8:6 D9:17", ["D8:6", "D9:17"]),
        ("D:11:26", ["D11:26"]),
        ("D30:05", ["D30:5"]),
        ("D", []),
        ("D10:19", []),
    ],
)
def test_locomo_evidence_repair(raw: str, fixed: list[str]) -> None:
    known = {"D8:6", "D9:17", "D11:26", "D30:5"}
    assert _repair(raw, known)[0] == fixed


def test_generic_loader_drops_unknown_evidence() -> None:
    data = load_generic(DATA / "tiny_memory_set.json")
    (conversation,) = data.conversations
    assert len(conversation.turns) == 5 and conversation.turns[0].date is not None
    assert [q.id for q in conversation.questions] == ["q1", "q2", "q3"]
    assert conversation.questions[2].evidence == ["s1:3"]
    assert conversation.questions[2].date is not None
    assert data.dropped_questions == 1 and data.dropped_evidence == ["s9:9", "s9:9"]


def test_locomo_loader_on_a_minimal_sample(tmp_path: Path) -> None:
    sample = [
        {
            "sample_id": "conv-x",
            "conversation": {
                "speaker_a": "A",
                "speaker_b": "B",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": "A", "dia_id": "D1:1", "text": "hi"},
                    {"speaker": "B", "dia_id": "D1:2", "text": "look", "blip_caption": "a dog"},
                ],
            },
            "qa": [
                {"question": "q?", "answer": "x", "evidence": ["D1:2; D1:1"], "category": 4},
                {"question": "empty", "answer": "y", "evidence": [], "category": 1},
            ],
        }
    ]
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps(sample))
    data = load_locomo(path)
    (conversation,) = data.conversations
    assert conversation.turns[1].text == "look [shares a photo: a dog]"
    assert conversation.turns[0].date is not None and conversation.turns[0].date.year == 2023
    assert [(q.id, q.evidence) for q in conversation.questions] == [("conv-x#0", ["D1:2", "D1:1"])]
    assert data.dropped_questions == 1


def test_session_any_counts_distinct_sessions_of_ranked_turns() -> None:
    session_of = {"a1": "A", "a2": "A", "b1": "B", "c1": "C", "d1": "D", "e1": "E", "f1": "F"}
    ranked = ["a1", "a2", "not-a-turn:x", "b1", "c1", "d1", "e1", "f1"]
    row = metrics(ranked, ["f1"], session_of)
    assert (row["session_any@5"], row["session_any@10"]) == (0.0, 1.0)  # F is the 6th session
    assert metrics(ranked, ["a2"], session_of)["session_any@5"] == 1.0
    assert "session_any@5" not in metrics(ranked, ["a2"])
