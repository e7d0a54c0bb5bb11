"""`graphmem bench ...`: benchmarks that print figures."""

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress

from graphmem.bench.anchors import run_anchor_bench
from graphmem.bench.write import run_write_bench
from graphmem.cli._common import (
    JsonOption,
    WorkersOption,
    handles_errors,
    interactive,
    print_json,
)

app = typer.Typer(help="Benchmarks (they print figures; run them on a quiet machine).")


@app.command()
@handles_errors
def write(
    beliefs: Annotated[int, typer.Option(min=1, help="Beliefs to write in batches.")] = 20_000,
    batch: Annotated[int, typer.Option(min=1, max=10_000, help="Rows per batch.")] = 1_000,
    singles: Annotated[int, typer.Option(min=1, help="Single writes timed one by one.")] = 200,
    as_json: JsonOption = False,
) -> None:
    """Batched belief throughput and single-write latency, under a scratch principal."""
    with Progress(disable=as_json or not interactive(), transient=True) as bar:
        task = bar.add_task("writing beliefs", total=beliefs + singles)
        figures = run_write_bench(beliefs, batch, singles, lambda n: bar.advance(task, n))
    if as_json:
        print_json(figures)
        return
    for name, value in figures.items():
        typer.echo(f"{name:<28} {value}")


@app.command()
@handles_errors
def anchors(
    path: Annotated[Path, typer.Argument(help="The source tree to index.")],
    project: Annotated[str, typer.Option(help="Project name for the scratch code graph.")],
    workers: WorkersOption = None,
    as_json: JsonOption = False,
) -> None:
    """Cold index and unchanged re-index of a tree, under a scratch principal."""
    figures = run_anchor_bench(path, project, workers)
    if as_json:
        print_json(figures)
        return
    cold, warm = figures["cold"], figures["warm"]
    typer.echo(
        f"cold: {cold['seconds']:.2f}s  {cold['files_per_s']} files/s  "
        f"{cold['symbols_per_s']} symbols/s  ({figures['files']} files, "
        f"{figures['symbols']} symbols)"
    )
    typer.echo(f"warm: {warm['seconds']:.2f}s  {warm['writes']} writes")
