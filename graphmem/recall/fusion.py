"""Score-aware fusion of the arms' lists (docs/recall.md).

fused(d) = Σ_arm weight_arm * s_arm(d), where an arm that scores (lexical BM25,
semantic cosine, the graph arm's spread from its seeds) gives its score normalised
within its own list, ``(score - floor) / (best - floor)``, so its best hit counts 1; an
arm that only orders (structured) gives ``(K + 1) / (K + rank)``, 1 at rank 1 and
slowly less. Reciprocal rank fusion threw the scores away: a lexical hit far ahead of
the rest counted no more than a narrow one, and fused MRR fell below the lexical arm
alone.

The weights were chosen on LoCoMo with the two-halves check (conversations 1-5 and
6-10 each, 1,982 questions; lexical 0.7 / semantic 0.3 / graph 0.4, K 20): R@10 0.762
and 0.735 (RRF 0.749, 0.729), MRR 0.515 and 0.488 (the lexical arm alone 0.490, 0.485;
RRF 0.443, 0.433), and this setting was among the best on each half alone. The graph
arm then ranked by distance alone; since it scores by its seeds' strength it weighs
0.3 (see ``recall/arms.py`` ``HOP_DECAY``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

ARM_WEIGHTS: dict[str, float] = {
    "lexical": 0.7,
    "semantic": 0.3,
    "graph": 0.3,
    "structured": 0.7,
    "time": 0.5,
}
"""What an arm's best hit adds. Structured matches (an anchor, a file, a subject named
exactly) weigh as much as the best lexical hit. The time arm (BM25 among the episodes
dated in the time a question names) adds 0.5: on LoCoMo's 334 questions that name a
time, MRR 0.519 | 0.436 -> 0.582 | 0.506 on the two halves, R@10 unchanged (0.851 |
0.722), and no change where no time is named."""
SCORE_FLOORS: dict[str, float] = {"semantic": 0.2}
"""The score that counts 0 (the semantic arm offers nothing below a cosine of 0.2)."""
RANK_DAMPING = 20
"""K of the rank-only arms: rank 1 counts 1, rank 12 counts 21/32."""


def fuse(
    ranked: Mapping[str, Sequence[str]], scores: Mapping[str, Mapping[str, float]]
) -> tuple[dict[str, float], dict[str, dict[str, int]]]:
    """Fuses ranked id lists (best first, ranks from 1).

    Args:
        ranked: Arm name → ids in that arm's order (an id repeated later is ignored).
        scores: Arm name → its score of each id, for the arms that score.

    Returns:
        (fused score per id, {id: {arm: rank}}).
    """
    fused: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    for arm in sorted(ranked):
        ids = list(dict.fromkeys(ranked[arm]))
        weight = ARM_WEIGHTS[arm]
        arm_scores = scores.get(arm)
        floor = SCORE_FLOORS.get(arm, 0.0)
        best = max((arm_scores[i] for i in ids), default=floor) if arm_scores else floor
        for position, node_id in enumerate(ids, start=1):
            ranks.setdefault(node_id, {})[arm] = position
            if arm_scores is None:
                share = (RANK_DAMPING + 1) / (RANK_DAMPING + position)
            elif best > floor:
                share = max(0.0, (arm_scores[node_id] - floor) / (best - floor))
            else:
                share = 0.0
            fused[node_id] = fused.get(node_id, 0.0) + weight * share
    return fused, ranks


SESSION_CONTEXT = 0.25
"""What the best other hit under the same parent (a turn's session) adds, times its
fused score: an answer sits in a conversation about it, and the turn that holds it
often shares fewer words with the question than the turns around it. Chosen on LoCoMo
with the two-halves check (conversations 1-5 | 6-10): R@10 0.765 | 0.734 -> 0.775 |
0.751, MRR (over 50) 0.524 | 0.501 -> 0.527 | 0.507; 0.15 to 0.5 all gained on both halves.
Multi-hop R@10 fell 0.420 -> 0.408: its evidence lies in several sessions."""


def with_session_context(
    fused: Mapping[str, float], parent_of: Mapping[str, str | None]
) -> dict[str, float]:
    """Each hit's fused score plus ``SESSION_CONTEXT`` times its best sibling's.

    A sibling is another hit under the same parent; a hit without a parent, or alone
    under it, keeps its score.

    Args:
        fused: The fused score per id.
        parent_of: Each id's parent id (None: it has none).
    """
    best_two: dict[str, list[float]] = {}
    for node_id, score in fused.items():
        parent = parent_of.get(node_id)
        if parent is not None:
            best_two[parent] = sorted([*best_two.get(parent, []), score], reverse=True)[:2]
    context: dict[str, float] = {}
    for node_id, score in fused.items():
        parent = parent_of.get(node_id)
        top = best_two.get(parent, [0.0]) if parent is not None else [0.0]
        # The best score under the parent is this hit's own when it leads: the next.
        sibling = top[0] if top[0] != score else (top[1] if len(top) > 1 else 0.0)
        context[node_id] = score + SESSION_CONTEXT * sibling
    return context


REPLY_CONTEXT = 1.0
"""The reply to a hit that asks scores at least this times the hit's fused score and
the share of its text that asks (:func:`question_share`): in a conversation the answer
to a question sits in the turn after it, and that turn often shares fewer words with a
later question about it than the question did ("What are their names?", then "Luna
and Oliver!").

A floor, not a transfer: a reply that already scores more gains nothing, and the hit
that asks keeps its score. Stop 27 added the share to the reply's own score and took a
fifth of it from the asker. That suited LoCoMo, where two people talk (R@10 0.763 ->
0.784, MRR 0.511 -> 0.568), and not conversations where a user tells an assistant about
themselves and asks for help in the same turn: there the fact sits in the turn that
asks, and the long reply after it repeats its words. On a proxy of that shape (45
questions over three LongMemEval_S haystacks, ``bench recall --format generic``) it cost
MRR 0.777 -> 0.578. Re-fusing captured arm lists, with the graph arm's spread: LoCoMo
conversations 1-5 | 6-10 R@10 0.781 | 0.754 (no reply context) -> 0.784 | 0.762 (this
floor), the proxy MRR 0.777 -> 0.781."""

_SENTENCE = re.compile(r"[^.!?\n]*[.!?\n]+|[^.!?\n]+$")


def question_share(text: str | None) -> float:
    """The share of ``text``'s characters in sentences that end with a question mark."""
    if not text or "?" not in text:
        return 0.0
    sentences = [part.strip() for part in _SENTENCE.findall(text)]
    total = sum(len(sentence) for sentence in sentences)
    asking = sum(len(sentence) for sentence in sentences if sentence.endswith("?"))
    return asking / total if total else 0.0


def with_reply_context(
    fused: Mapping[str, float], asks: Mapping[str, float], reply_of: Mapping[str, str]
) -> dict[str, float]:
    """Lifts the reply to each hit that asks to its floor (see ``REPLY_CONTEXT``).

    Args:
        fused: The fused score per id.
        asks: Each id's :func:`question_share` (missing: 0).
        reply_of: Each id's reply, when that passed the search's filters (missing:
            none); a reply no arm ranked enters at its floor.
    """
    lifted = dict(fused)
    for node_id in sorted(fused):
        reply = reply_of.get(node_id)
        floor = REPLY_CONTEXT * asks.get(node_id, 0.0) * fused[node_id]
        if reply is not None and floor > lifted.get(reply, 0.0):
            lifted[reply] = floor
    return lifted


RRF_K = 60


def reciprocal_rank_fusion(ranked: Mapping[str, Sequence[str]], k: int = RRF_K) -> dict[str, float]:
    """rrf(d) = Σ_arm 1 / (k + rank_arm(d)): how the graph arm picks its seeds.

    Args:
        ranked: Arm name → ids in that arm's order (an id repeated later is ignored).
        k: The RRF constant.
    """
    scores: dict[str, float] = {}
    for arm in sorted(ranked):
        for position, node_id in enumerate(dict.fromkeys(ranked[arm]), start=1):
            scores[node_id] = scores.get(node_id, 0.0) + 1.0 / (k + position)
    return scores
