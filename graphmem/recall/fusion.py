"""Reciprocal rank fusion (design §5.3): rrf(d) = Σ_arm 1 / (k + rank_arm(d))."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

RRF_K = 60


def reciprocal_rank_fusion(
    ranked: Mapping[str, Sequence[str]], k: int = RRF_K
) -> tuple[dict[str, float], dict[str, dict[str, int]]]:
    """Fuses ranked id lists (best first, ranks from 1).

    Args:
        ranked: Arm name → ids in that arm's order (an id repeated later is ignored).
        k: The RRF constant.

    Returns:
        (fused score per id, {id: {arm: rank}}).
    """
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    for arm in sorted(ranked):
        position = 0
        for node_id in ranked[arm]:
            if arm in ranks.get(node_id, {}):
                continue
            position += 1
            ranks.setdefault(node_id, {})[arm] = position
            scores[node_id] = scores.get(node_id, 0.0) + 1.0 / (k + position)
    return scores, ranks
