"""Code-anchor commands: index (build the code graph) and anchors (check a belief)."""

from pathlib import Path
from typing import Annotated

import typer

from graphmem.cli._common import (
    DataDirOption,
    JsonOption,
    PrincipalOption,
    WorkersOption,
    handles_errors,
    open_memory,
    print_json,
    print_result,
    progress_task,
)
from graphmem.models import AnchorStatus


def _describe_status(status: AnchorStatus) -> str:
    lines = [
        f"belief   {status.belief_id}",
        f"project  {status.project}",
        f"anchor   {status.anchor_key or '(none: applies repo-wide)'}",
        f"state    {status.state}  (weight {status.anchor_weight}, "
        f"applies here: {'yes' if status.applies_here else 'no'})",
    ]
    if status.reason:
        lines.append(f"why      {status.reason}")
    for candidate in status.candidates:
        lines.append(f"maybe    {candidate.key}  ({candidate.reason})")
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    """Adds the code-anchor commands to ``app``."""

    @app.command()
    @handles_errors
    def index(
        path: Annotated[Path, typer.Argument(help="The source tree to index.")],
        project: Annotated[str, typer.Option(help="The project whose code graph it is.")],
        rebuild: Annotated[
            bool, typer.Option("--rebuild", help="Delete the project's code graph first.")
        ] = False,
        include_ignored: Annotated[
            bool,
            typer.Option(
                "--include-ignored", help="Also index what git ignores (walks the directory)."
            ),
        ] = False,
        workers: WorkersOption = None,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Build or update a project's code graph (files, symbols) with tree-sitter."""
        with (
            open_memory(principal, data_dir) as memory,
            progress_task(as_json, "parsing") as report,
        ):
            summary = memory.index_code(
                path,
                project,
                workers=workers,
                rebuild=rebuild,
                include_ignored=include_ignored,
                progress=report,
            )
        if as_json:
            print_json(summary.to_dict())
            return
        files, symbols = summary.files, summary.symbols
        typer.echo(
            f"files: {files['seen']} seen, {files['parsed']} parsed, {files['skipped']} "
            f"unchanged, {files['removed']} removed, {files['failed']} failed"
        )
        typer.echo(
            f"symbols: {symbols['added']} added, {symbols['changed']} changed, "
            f"{symbols['removed']} removed  ({summary.seconds:.2f}s, {summary.writes} writes)"
        )
        for failure in summary.failed:
            typer.echo(f"  failed  {failure['path']}: {failure['reason']}")
        for reason, count in summary.ignored.items():
            typer.echo(f"  ignored {count} ({reason})")
        for warning in summary.warnings:
            typer.echo(f"warning: {warning}", err=True)
        for change in summary.anchor_changes:
            typer.echo(
                f"  anchor  {change.before} -> {change.after}  {change.belief_id}  "
                f"{change.statement}"
            )

    @app.command()
    @handles_errors
    def anchors(
        belief_id: Annotated[str, typer.Argument(metavar="BELIEF_ID")],
        project: Annotated[
            str | None, typer.Option(help="Check against this project (default: the belief's).")
        ] = None,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Show whether a belief's anchor still matches the code of a project."""
        with open_memory(principal, data_dir) as memory:
            status = memory.anchor_status(belief_id, project)
        print_result(status, as_json, _describe_status)
