"""Cross-project views: overview (what is known where) and changes (what changed)."""

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
from graphmem.explore.text import change_line, overview_lines
from graphmem.models import ChangeKind


def register(app: typer.Typer) -> None:
    """Adds the cross-project views to ``app``."""

    @app.command()
    @handles_errors
    def overview(
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Each project's memory at a glance, the principal-scope beliefs, shared subjects."""
        with open_memory(principal, data_dir) as memory:
            view = memory.overview()
        print_result(view, as_json, lambda shown: "\n".join(overview_lines(shown)))

    @app.command()
    @handles_errors
    def changes(
        since: Annotated[
            str,
            typer.Option(help="A span (30m, 12h, 7d, 2w), an ISO 8601 date or time, or a seq."),
        ] = "7d",
        project: Annotated[str | None, typer.Option(help="Only changes about it.")] = None,
        kind: Annotated[
            list[str] | None,
            typer.Option(
                "--kind",
                help="Only this kind (repeatable): " + ", ".join(k.value for k in ChangeKind),
            ),
        ] = None,
        limit: LimitOption = 1_000,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """What changed, oldest first: learned, superseded, retired, promoted, drifted..."""
        with open_memory(principal, data_dir) as memory:
            found = memory.changes(since, project=project, kinds=kind, limit=limit)
        print_listing(found, as_json, change_line, "no changes")
