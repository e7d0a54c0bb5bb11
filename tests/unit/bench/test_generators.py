"""The synthetic benchmark rows are valid input and deterministic."""

from __future__ import annotations

from graphmem.bench.formation import fact_pool
from graphmem.bench.scale import scale_beliefs
from graphmem.bench.write import synthetic_beliefs
from graphmem.models import NewBelief
from graphmem.validation import parse


def test_scale_rows_are_valid_varied_and_deterministic() -> None:
    rows = list(scale_beliefs(500, projects=10))
    assert rows == list(scale_beliefs(500, projects=10))
    for index, row in enumerate(rows):
        parse(NewBelief, row, row=index)
    assert len({row["subject"] for row in rows}) > 100
    assert 50 < sum("anchor" in row for row in rows) < 150
    assert len({row["project"] for row in rows}) == 10


def test_write_rows_are_valid() -> None:
    for index, row in enumerate(synthetic_beliefs(200, projects=3)):
        parse(NewBelief, row, row=index)


def test_formation_pool_has_one_slot_per_fact_in_three_phrasings() -> None:
    pool = fact_pool()
    assert len(pool) == 30 and all(len(set(phrasings)) == 3 for phrasings in pool)
