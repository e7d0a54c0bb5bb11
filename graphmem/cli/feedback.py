"""Feedback commands: cite, hints and traces sweep.

``cite`` records what a recall's reader used, ``hints`` lists what recall kept missing,
``traces sweep`` applies two-tier trace retention.
"""

from typing import Annotated

import typer

from graphmem.cli._common import (
    DataDirOption,
    JsonOption,
    LimitOption,
    PrincipalOption,
    handles_errors,
    open_memory,
    print_listing,
    print_result,
)
from graphmem.explore.text import citation_line, hint_line, iso_time
from graphmem.models import TraceSweep

traces_app = typer.Typer(
    help="Recall traces: two-tier retention (operator fields expire, user fields stay).",
    no_args_is_help=True,
)


@traces_app.command("sweep")
@handles_errors
def sweep(
    older_than: Annotated[
        str | None,
        typer.Option(
            "--older-than",
            help="A span: 30d, 12h, 2w (0d: every trace). Default: "
            "GRAPHMEM_TRACE_OPERATOR_DAYS, else 30 days.",
            show_default=False,
        ),
    ] = None,
    principal: PrincipalOption = None,
    data_dir: DataDirOption = None,
    as_json: JsonOption = False,
) -> None:
    """Remove operator fields from old traces (user fields stay); delete expired hints."""
    with open_memory(principal, data_dir) as memory:
        done = memory.sweep_traces(older_than)
    print_result(done, as_json, _swept)


def _swept(done: TraceSweep) -> str:
    return (
        f"removed the operator fields of {done.traces} traces recorded before "
        f"{iso_time(done.cutoff)}; deleted {done.hints} expired formation hints"
    )


def register(app: typer.Typer) -> None:
    """Adds cite, hints and the traces group to ``app``."""

    @app.command()
    @handles_errors
    def cite(
        trace_id: Annotated[str, typer.Argument(metavar="TRACE_ID", help="A recall's trace id.")],
        item_ids: Annotated[
            list[str],
            typer.Argument(metavar="ITEM_ID...", help="The ids of the items you used."),
        ],
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Record which items of a recall you used: restarts their decay, never confidence."""
        with open_memory(principal, data_dir) as memory:
            result = memory.cite(trace_id, item_ids)
        print_result(result, as_json, citation_line)

    @app.command()
    @handles_errors
    def hints(
        include_consumed: Annotated[
            bool, typer.Option("--all", help="Also the consumed hints that have not expired.")
        ] = False,
        limit: LimitOption = 100,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Subjects recall kept missing on, queued for formation (`consolidate` takes them)."""
        with open_memory(principal, data_dir) as memory:
            found = memory.hints(include_consumed=include_consumed, limit=limit)
        print_listing(found, as_json, hint_line, "no formation hints")

    app.add_typer(traces_app, name="traces")
