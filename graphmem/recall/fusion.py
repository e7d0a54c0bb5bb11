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

Issue 36 chose again, across LoCoMo and both development sets of ``bench/recall``
together (R@10 | MRR, fused, semantic windows of 128 tokens, session context of reach 1
unless said): semantic weight 0.3 → 0.4 (LoCoMo 0.775 | 0.534 → 0.774 | 0.532; long-chat
0.703 | 0.398 → 0.732 | 0.415; coding-memory 0.952 | 0.613 → 0.952 | 0.616); 0.5 (with
the whole-session context) gave LoCoMo 0.770, long-chat 0.725. The graph arm adding only
what the other arms did not find (no score for a hit they found too) cost LoCoMo
0.775 → 0.743 and coding 0.952 → 0.940 for long-chat 0.703 → 0.746: it is not done, the
graph arm's support of a lexical hit is most of its worth on LoCoMo. Rank fusion lost
everywhere (RRF: LoCoMo R@10 0.65 to 0.72 across weightings); a z-score normalisation
instead of the best-hit one kept LoCoMo R@10 (0.776) but lost multi-hop (0.449 → 0.41 to
0.43). Personalised PageRank (HippoRAG's, networkx, over the query's entity-episode
neighbourhood, damping 0.5 and 0.85) in place of the graph arm's spread: LoCoMo 0.754 to
0.759, multi-hop 0.429 to 0.439, against 0.773 and 0.449, at ~10 ms more a question;
networkx is no longer a dependency.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

ARM_WEIGHTS: dict[str, float] = {
    "lexical": 0.7,
    "semantic": 0.4,
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
"""What the best hit next to it (see ``SESSION_REACH``) adds, times that hit's fused
score: an answer sits in a conversation about it, and the turn that holds it often
shares fewer words with the question than the turns around it."""
SESSION_REACH = 1
"""How many places away under the same parent a neighbour counts: the turn just before
and just after.

Until issue 36 the best hit anywhere in the session counted. That suited LoCoMo, where
a session is one conversation, and not memory where a fact is said in passing inside a
long chat about something else: there the session's other turns, about that something
else, lifted each other above it. R@10 | MRR | LoCoMo multi-hop R@10, fused, 128-token
windows, by reach (whole session → 1 → 2 → 3):

- LoCoMo (1,982 questions): 0.773 | 0.535 | 0.449 → 0.775 | 0.534 | 0.440 →
  0.777 | 0.535 | 0.439 → 0.775 | 0.535 | 0.442;
- long-chat (69 questions, ``bench/recall``): 0.681 | 0.370 → 0.703 | 0.398 →
  0.681 | 0.367 → 0.681 | 0.370;
- coding-memory (42): 0.964 | 0.616 → 0.952 | 0.613 → 0.952 | 0.609 → 0.964 | 0.613.

Without any session context: LoCoMo 0.760 | 0.533, long-chat 0.739 | 0.408, coding
0.941 | 0.622. Reach 1 with weight 0.35 or 0.5 gained nothing more (LoCoMo 0.773 and
0.774, long-chat 0.703 and 0.688). Multi-hop evidence lies in several sessions, and
the whole-session context helped it most."""


def with_session_context(
    fused: Mapping[str, float],
    parent_of: Mapping[str, str | None],
    position_of: Mapping[str, int],
) -> dict[str, float]:
    """Each hit's fused score plus ``SESSION_CONTEXT`` times its best near neighbour's.

    A neighbour is another hit under the same parent at most ``SESSION_REACH`` places
    away; a hit without a parent, or without such a neighbour, keeps its score.

    Args:
        fused: The fused score per id.
        parent_of: Each id's parent id (None: it has none).
        position_of: Each id's place under its parent (see ``EpisodeCandidate.position``).
    """
    by_place: dict[tuple[str, int], float] = {}
    for node_id, score in fused.items():
        parent = parent_of.get(node_id)
        if parent is not None:
            by_place[(parent, position_of[node_id])] = score
    steps = [step for step in range(-SESSION_REACH, SESSION_REACH + 1) if step]
    context: dict[str, float] = {}
    for node_id, score in fused.items():
        parent = parent_of.get(node_id)
        neighbour = 0.0
        if parent is not None:
            at = position_of[node_id]
            neighbour = max(by_place.get((parent, at + step), 0.0) for step in steps)
        context[node_id] = score + SESSION_CONTEXT * neighbour
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
