"""Pure parts of the arms (graph seeds and reach) and of snapshots (choice, budgets)."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

from graphmem.models import (
    AnchorState,
    Arm,
    Authority,
    BeliefState,
    BeliefType,
    Portability,
    RecallItem,
    Scope,
)
from graphmem.recall.arms import GRAPH_SEEDS, HOP_DECAY, GraphArm, LexicalArm, spread
from graphmem.recall.lexical import LexicalView
from graphmem.recall.snapshot import CHARS_PER_TOKEN, Weighted, choose, within_tokens
from graphmem.store.events import ViewEvent
from graphmem.store.recall import BeliefCandidate, Reach
from graphmem.vectors.views import ViewFeed


def _belief(seq: int, **changes: object) -> BeliefCandidate:
    base = BeliefCandidate(
        id=f"b{seq:03d}",
        seq=seq,
        project="p",
        statement=f"statement {seq}",
        subject=None,
        type=BeliefType.FACT,
        confidence=0.5,
        state=BeliefState.ACTIVE,
        scope=Scope.PROJECT,
        portability=Portability.CONTEXTUAL,
        origins=("p",),
        anchor_key=None,
        anchor_hash=None,
        authority=Authority.AGENT,
        disputed=False,
        cited_seq=seq,
        evidence=(),
        conflicts=(),
    )
    return base._replace(**changes)  # type: ignore[arg-type]


def test_graph_seeds_are_the_best_fused_hits_of_the_other_arms() -> None:
    offered = {Arm.LEXICAL: [5, 3, 9], Arm.SEMANTIC: [3, 7, 8, 10, 11, 12]}
    seeds = GraphArm().offer(offered)
    assert len(seeds) == GRAPH_SEEDS
    assert seeds[0] == 3  # in both arms
    assert seeds[1:3] == [5, 7]  # rank 1 and rank 2 of one arm each, ties by seq


def test_a_reached_node_scores_its_best_seeds_strength_times_the_hop_decay() -> None:
    found = {
        1: _belief(1, reached=(Reach(seed=20, hops=2),)),
        2: _belief(2, reached=(Reach(seed=10, hops=2),)),
        3: _belief(3, reached=(Reach(seed=20, hops=1), Reach(seed=10, hops=2))),
        4: _belief(4),  # a hit, not reached from any seed
        5: _belief(5, reached=(Reach(seed=30, hops=1),)),  # its seed lends nothing
    }
    strength = {10: 1.0, 20: 0.5}
    scores = spread(found.values(), strength)
    assert scores == {
        1: 0.5 * HOP_DECAY[2],
        2: 1.0 * HOP_DECAY[2],
        3: max(0.5 * HOP_DECAY[1], 1.0 * HOP_DECAY[2]),
    }
    graph = GraphArm()
    graph.weigh({**strength, 30: 0.0})
    best_first = sorted(scores, key=lambda seq: (-scores[seq], found[seq].id))
    assert graph.rank([10, 20, 30], found) == [found[seq].id for seq in best_first]
    assert graph.scores == scores


def test_hit_arms_keep_every_survivor_in_order() -> None:
    found = {seq: _belief(seq) for seq in range(0, 40, 2)}
    view = LexicalView(lambda since, types, limit: [], "p", "belief")
    feed: Future[ViewFeed] = Future()
    feed.set_result(lambda since, types, limit: [])
    with ThreadPoolExecutor(max_workers=1) as executor:
        arm = LexicalArm(view, "q", executor, feed)
        ranked = arm.rank(list(range(40, 0, -1)), found)
    assert ranked == [f"b{seq:03d}" for seq in range(38, 0, -2)]


def test_the_lexical_arm_answers_from_the_caught_up_view() -> None:
    events = [ViewEvent(1, "belief.created", 11, "invoice rounding uses half even")]
    later = [ViewEvent(2, "belief.created", 12, "invoice rounding is done once")]
    view = LexicalView(
        lambda since, types, limit: [e for e in events if e.seq > since], "p", "belief"
    )
    view.sync()
    caught_up: Future[ViewFeed] = Future()
    caught_up.set_result(lambda since, types, limit: [e for e in events + later if e.seq > since])
    with ThreadPoolExecutor(max_workers=1) as executor:
        offered = LexicalArm(view, "invoice rounding", executor, caught_up).offer({})
        assert sorted(offered) == [11, 12]  # the event read meanwhile counts
        again = LexicalArm(view, "invoice rounding", executor, caught_up)
        assert again.offer({}) == offered and "lexical_again" not in again.timings_ms


def test_snapshot_gives_about_two_thirds_to_durable_beliefs() -> None:
    durable = [Weighted(_belief(i, type=BeliefType.PREFERENCE), 1.0) for i in range(10)]
    user = [Weighted(_belief(100 + i, authority=Authority.USER), 0.5) for i in range(10)]
    others = [Weighted(_belief(200 + i), 1.0) for i in range(10)]
    chosen = choose([*others, *durable, *user], item_cap=15)
    assert len(chosen) == 15
    kinds = [b.type is BeliefType.PREFERENCE or b.authority is Authority.USER for b in chosen]
    assert sum(kinds) == 10 and kinds[:10] == [True] * 10
    assert [b.seq for b in chosen[:3]] == [9, 8, 7]  # weight, then newest first


def test_snapshot_gives_an_unfilled_share_to_the_other_group() -> None:
    few = [Weighted(_belief(i, type=BeliefType.PREFERENCE), 1.0) for i in range(2)]
    many = [Weighted(_belief(100 + i), 1.0) for i in range(30)]
    assert len(choose([*few, *many], item_cap=15)) == 15
    only_durable = [Weighted(_belief(i, type=BeliefType.PREFERENCE), 1.0) for i in range(30)]
    assert len(choose(only_durable, item_cap=15)) == 15


def test_the_token_cap_is_a_backstop_on_the_rendering() -> None:
    items = [
        RecallItem(
            id=f"i{n}",
            statement="x" * 100,
            type=BeliefType.FACT,
            confidence_band="medium",
            project="p",
            origins=["p"],
            scope=Scope.PROJECT,
            anchor_state=AnchorState.UNANCHORED,
            applies_here=True,
            evidence=[],
            arm_ranks={},
            score=0.0,
        )
        for n in range(10)
    ]

    def render(kept: list[RecallItem]) -> str:
        return "".join(item.statement for item in kept)

    kept = within_tokens(items, render, token_cap=350 // CHARS_PER_TOKEN)
    assert [item.id for item in kept] == ["i0", "i1", "i2"]
    assert within_tokens(items, render, token_cap=10_000) == items
