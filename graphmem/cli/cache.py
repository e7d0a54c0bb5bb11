"""``graphmem cache status|sweep``: the transient tier's byte budget."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime
from typing import Annotated

import typer

from graphmem.cli._common import DataDirOption, JsonOption, handles_errors, print_json
from graphmem.settings import resolve_data_dir
from graphmem.vectors.tier import cache_budget, cache_entries, sweep

app = typer.Typer(help="The transient tier (FAISS views): size, budget, eviction.")

BudgetOption = Annotated[
    float | None,
    typer.Option("--budget-mb", help="Default: GRAPHMEM_CACHE_BUDGET_MB, else 256."),
]


def _mb(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB"


@app.command()
@handles_errors
def status(
    budget_mb: BudgetOption = None, data_dir: DataDirOption = None, as_json: JsonOption = False
) -> None:
    """Show the derived views on disk, least recently used first, against the budget."""
    budget = cache_budget(budget_mb)
    entries = cache_entries(resolve_data_dir(data_dir) / "views")
    total = sum(entry.bytes for entry in entries)
    if as_json:
        print_json(
            {
                "budget_bytes": budget,
                "total_bytes": total,
                "over_budget": total > budget,
                "entries": [
                    {"name": e.name, "bytes": e.bytes, "last_used": e.last_used} for e in entries
                ],
            }
        )
        return
    for entry in entries:
        used = datetime.fromtimestamp(entry.last_used, UTC).isoformat(timespec="seconds")
        typer.echo(f"{entry.name:<64} {_mb(entry.bytes):>10}  used {used}")
    typer.echo(f"total {_mb(total)} of a {_mb(budget)} budget")


@app.command("sweep")
@handles_errors
def sweep_command(
    budget_mb: BudgetOption = None, data_dir: DataDirOption = None, as_json: JsonOption = False
) -> None:
    """Evict least recently used views until the tier fits the budget."""
    report = sweep(resolve_data_dir(data_dir) / "views", cache_budget(budget_mb))
    if as_json:
        print_json(asdict(report))
        return
    for name in report.evicted:
        typer.echo(f"evicted {name}")
    typer.echo(f"{_mb(report.before_bytes)} -> {_mb(report.after_bytes)}")
    if report.over_budget:
        typer.echo(
            f"still over the {_mb(report.budget_bytes)} budget: the most recently used view "
            "alone is larger (it is always kept)",
            err=True,
        )
