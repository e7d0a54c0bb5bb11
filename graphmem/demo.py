"""The demo scenario: memory across two projects, and a belief that drifts with its code.

Episodes with observations, decisions and a failed attempt; beliefs with provenance;
one supersession; then a belief anchored to indexed code goes from verified to
drifted when the code is edited (and stays drifted, to explore); finally consolidation
forms a belief from episodes in two projects and promotes it to principal scope. Every
write carries an idempotency key, so running the demo again changes no memory; its
index runs log the anchor changes they see again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from graphmem.client import GraphMem

CENTS = "Money amounts are stored as integer cents"
BROWSER_QUERY = (
    "MATCH (b:Belief {principal: $principal})-[r:DERIVED_FROM|SUPERSEDES|ANCHORED_TO]->(n) "
    "RETURN b, r, n"
)


SAMPLE_INVOICE = """\
from decimal import ROUND_HALF_UP, Decimal


class Invoice:
    def __init__(self, lines):
        self.lines = lines

    def total(self):
        cents = sum(Decimal(str(line.amount)) for line in self.lines)
        return cents.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def render(invoice):
    return f"{invoice.total():.2f} EUR"
"""

SAMPLE_EDIT = ("sum(Decimal(str(line.amount))", "sum(Decimal(line.amount)")
"""The later edit: someone builds Decimal from floats again."""

TOTAL_KEY = "python:billing/invoice.py::Invoice.total#method"


@dataclass(frozen=True)
class DemoResult:
    """Ids the demo wrote and the anchor states it saw, for callers and tests."""

    episodes: dict[str, str]
    beliefs: dict[str, str]
    anchor_states: list[str]


def _write_sample(root: Path, edited: bool) -> None:
    source = SAMPLE_INVOICE.replace(*SAMPLE_EDIT) if edited else SAMPLE_INVOICE
    (root / "billing").mkdir(parents=True, exist_ok=True)
    (root / "billing" / "invoice.py").write_text(source, encoding="utf-8")


def _say_anchor(
    memory: GraphMem, belief_id: str, say: Callable[[str], None], remark: str = ""
) -> str:
    """Narrates a belief's anchor state, weight and reach (then ``remark``).

    Returns:
        The anchor state.
    """
    status = memory.anchor_status(belief_id)
    say(
        f"   anchor: {status.state} (weight {status.anchor_weight}, applies here: "
        f"{status.applies_here}){remark}"
    )
    return status.state


def run_demo(memory: GraphMem, say: Callable[[str], None], workdir: Path) -> DemoResult:
    """Writes the scenario into ``memory`` and narrates it through ``say``.

    Args:
        memory: The client (its principal owns the demo's memory).
        say: Where narration goes.
        workdir: Where the sample billing-api source tree is written and edited.
    """
    episodes: dict[str, str] = {}
    say("1. An agent fixes a flaky test in billing-api and records what happened.")
    episodes["flaky"] = memory.remember(
        {
            "project": "billing-api",
            "kind": "task",
            "title": "Fix flaky invoice total test",
            "text": "test_invoice_total failed about 1 run in 20 on CI.",
            "outcome": "succeeded",
            "observations": [
                "test_invoice_total fails about 1 in 20 runs",
                "invoice.py builds Decimal values from floats",
            ],
            "inferences": ["Float-to-Decimal conversion causes the rounding drift"],
            "decisions": ["Build Decimal values from strings, never from floats"],
            "failed_attempts": ["Pinned the random seed in conftest.py: still flaky"],
            "paths": ["billing/invoice.py", "tests/test_invoice.py"],
            "commits": ["3f9c2ab"],
            "idempotency_key": "demo:episode:flaky",
        }
    )
    episodes["ci_run"] = memory.remember(
        {
            "project": "billing-api",
            "kind": "run",
            "title": "CI run 1842 (before the fix)",
            "outcome": "failed",
            "parent": episodes["flaky"],
            "observations": ["assert Decimal('10.01') == Decimal('10.00')"],
            "idempotency_key": "demo:episode:ci-run",
        }
    )
    episodes["finance"] = memory.remember(
        {
            "project": "billing-api",
            "kind": "message",
            "title": "Finance: invoices round half-up",
            "text": "Finance confirmed invoices must round half-up (ticket FIN-212).",
            "outcome": "none",
            "idempotency_key": "demo:episode:finance",
        }
    )
    episodes["checkout"] = memory.remember(
        {
            "project": "checkout-web",
            "kind": "task",
            "title": "Cart total off by one cent",
            "outcome": "succeeded",
            "observations": ["The cart rounds totals in the browser with toFixed(2)"],
            "decisions": ["Show amounts exactly as billing-api rounded them"],
            "paths": ["src/cart/total.ts"],
            "idempotency_key": "demo:episode:checkout",
        }
    )
    for name, episode_id in episodes.items():
        say(f"   episode {episode_id}  ({name})")

    say("2. It states what it learned, each belief citing the episodes behind it.")
    beliefs: dict[str, str] = {}
    beliefs["decimal"] = memory.believe(
        "Build Decimal from strings, not floats: Decimal(0.1) carries binary float error",
        project="billing-api",
        type="lesson",
        subject="decimal construction",
        confidence=0.9,
        evidence=[{"episode_id": episodes["flaky"], "role": "inference"}],
        idempotency_key="demo:belief:decimal",
    )
    beliefs["seed"] = memory.believe(
        "Pinning the random seed does not fix the invoice rounding flakiness",
        project="billing-api",
        type="dead_end",
        subject="flaky invoice test",
        confidence=0.8,
        evidence=[{"episode_id": episodes["flaky"], "role": "failed_attempt"}],
        idempotency_key="demo:belief:seed",
    )
    beliefs["rounding"] = memory.believe(
        "billing-api rounds invoice totals half-even",
        project="billing-api",
        type="decision",
        subject="invoice rounding mode",
        confidence=0.6,
        evidence=[episodes["flaky"]],
        idempotency_key="demo:belief:rounding",
    )
    beliefs["display"] = memory.believe(
        "checkout-web shows amounts exactly as billing-api rounded them",
        project="checkout-web",
        type="decision",
        subject="amount display",
        confidence=0.8,
        evidence=[{"episode_id": episodes["checkout"], "role": "decision"}],
        idempotency_key="demo:belief:display",
    )
    for belief_id in beliefs.values():
        belief = memory.get_belief(belief_id)
        say(f"   {belief.type:<9} {belief.statement}")
        say(f"             id {belief_id}, from {', '.join(e.episode_id for e in belief.evidence)}")

    say("3. Finance corrects the rounding rule: the old belief is superseded, not overwritten.")
    beliefs["rounding_v2"] = memory.supersede(
        beliefs["rounding"],
        {
            "statement": "billing-api rounds invoice totals half-up, as finance requires (FIN-212)",
            "authority": "user",
            "confidence": 0.95,
            "evidence": [episodes["finance"]],
            "idempotency_key": "demo:belief:rounding-v2",
        },
        reason="Finance confirmed half-up rounding (FIN-212)",
    )
    for position, entry in enumerate(memory.history(beliefs["rounding_v2"]), start=1):
        state = "live" if entry.belief.is_live else "superseded"
        say(f"   {position}. [{state}] {entry.belief.statement}")
        if entry.reason:
            say(f"      because: {entry.reason}")

    say("4. Live beliefs now, per project:")
    for project in ("billing-api", "checkout-web"):
        say(f"   {project}:")
        for belief in memory.list_beliefs(project=project):
            say(f"     - ({belief.type}) {belief.statement}")

    say(f"5. graphmem indexes billing-api's code ({workdir}) with tree-sitter.")
    _write_sample(workdir, edited=False)
    summary = memory.index_code(workdir, "billing-api")
    say(
        f"   {summary.files_parsed + summary.files_skipped} file(s), {summary.symbols_added} "
        "new symbol(s); episodes that named billing/invoice.py now TOUCH its symbols"
    )
    beliefs["anchored"] = memory.believe(
        "Invoice.total builds Decimal from str(amount), so cents never drift",
        project="billing-api",
        type="fact",
        subject="invoice total",
        confidence=0.9,
        anchor=TOTAL_KEY,
        evidence=[episodes["flaky"]],
        idempotency_key="demo:belief:anchored",
    )
    say(f"   belief anchored to {TOTAL_KEY}")
    states = [_say_anchor(memory, beliefs["anchored"], say)]

    say("6. Someone edits Invoice.total to build Decimal from floats again; re-index.")
    _write_sample(workdir, edited=True)
    summary = memory.index_code(workdir, "billing-api")
    for change in summary.anchor_changes:
        say(f"   index: {change.before} -> {change.after}: {change.statement}")
    states.append(
        _say_anchor(memory, beliefs["anchored"], say, " - the belief is demoted, never deleted")
    )
    # The edit stays: `graphmem beliefs --all-projects --anchor-state drifted` and
    # Browser's drifted-beliefs query show it. A re-run writes the sample afresh.

    say("7. Consolidation forms beliefs from episodes; a fact seen in two projects is promoted.")
    for key, project in (("cents_billing", "billing-api"), ("cents_checkout", "checkout-web")):
        episodes[key] = memory.remember(
            {
                "project": project,
                "kind": "task",
                "title": "Audit how money is stored",
                "outcome": "succeeded",
                "observations": [CENTS],
                "idempotency_key": f"demo:episode:{key}",
            }
        )
        result = memory.consolidate(episodes[key])
        done = (
            "already consolidated"
            if result.already_consolidated
            else (
                f"{len(result.created)} created, {len(result.reinforced)} reinforced, "
                f"{len(result.promoted)} promoted"
            )
        )
        say(f"   {project}: {done}")
    (cents,) = [b for b in memory.list_beliefs() if b.statement == CENTS]
    beliefs["cents"] = cents.id
    say(
        f"   '{CENTS}': scope {cents.scope}, origins {', '.join(cents.origins)}, "
        f"{len(cents.evidence)} episodes behind it"
    )
    return DemoResult(episodes=episodes, beliefs=beliefs, anchor_states=states)
