"""The benchmark's cheap embedder: deterministic unit rows that follow word overlap."""

from __future__ import annotations

import numpy as np

from graphmem.vectors.hashed import HASHED_DIM, HashedEmbedder


def test_rows_are_unit_length_float32_and_deterministic() -> None:
    texts = ["Retry budget must be idempotent", "", "!!!", "a a"]
    first = HashedEmbedder().embed(texts)
    assert first.shape == (4, HASHED_DIM) and first.dtype == np.float32
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0)
    assert np.array_equal(first, HashedEmbedder().embed(texts))


def test_shared_words_score_higher_than_none() -> None:
    query, near, far = HashedEmbedder().embed(
        [
            "the retry budget for webhooks",
            "webhooks use a retry budget capped at thirty seconds",
            "invoice totals are rounded half even",
        ]
    )
    assert float(query @ near) > float(query @ far) + 0.3


def test_no_texts_give_no_rows() -> None:
    assert HashedEmbedder().embed([]).shape == (0, HASHED_DIM)
