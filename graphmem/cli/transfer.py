"""Export and import: a principal's memory as a graphmem export file (JSON Lines)."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from graphmem.cli._common import (
    DataDirOption,
    JsonOption,
    PrincipalOption,
    handles_errors,
    open_memory,
    print_json,
    progress_task,
)


def register(app: typer.Typer) -> None:
    """Adds ``export`` and ``import`` to ``app``."""

    @app.command()
    @handles_errors
    def export(
        output: Annotated[
            Path | None,
            typer.Option("--output", "-o", help="The file to write (default: stdout)."),
        ] = None,
        project: Annotated[str | None, typer.Option(help="Only this project's memory.")] = None,
        include_secret: Annotated[
            bool,
            typer.Option(
                "--include-secret", help="Also write secret memory (left out by default)."
            ),
        ] = False,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Write the principal's memory as a graphmem export (versioned JSON Lines).

        The summary goes to stdout when the export goes to a file, else to stderr.
        Secret episodes and beliefs are left out unless --include-secret.
        """
        with open_memory(principal, data_dir) as memory:
            target = sys.stdout if output is None or str(output) == "-" else output
            summary = memory.export(target, project=project, include_secret=include_secret)
        to_stderr = output is None or str(output) == "-"
        if as_json:
            if to_stderr:
                typer.echo(summary.model_dump_json(indent=2), err=True)
            else:
                print_json(summary.model_dump(mode="json"))
            return
        counts = ", ".join(f"{n} {kind}" for kind, n in summary.records.items() if n)
        withheld = f" ({summary.withheld} secret left out)" if summary.withheld else ""
        typer.echo(f"exported {summary.principal}: {counts or 'nothing'}{withheld}", err=to_stderr)

    @app.command(name="import")
    @handles_errors
    def import_(
        source: Annotated[str, typer.Argument(help="The export file, or - for stdin.")],
        as_principal: Annotated[
            str | None,
            typer.Option(
                "--as-principal",
                help="Re-own the memory: write it for this principal (new ids where taken).",
            ),
        ] = None,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Import a graphmem export: every line checked first, then all or nothing."""
        with (
            open_memory(principal, data_dir) as memory,
            progress_task(as_json, "importing") as report,
        ):
            stream = sys.stdin.buffer if source == "-" else Path(source)
            summary = memory.import_memory(stream, as_principal=as_principal, progress=report)
        if as_json:
            print_json(summary.model_dump(mode="json"))
            return
        if summary.already_present:
            typer.echo(f"already imported into {summary.principal}: nothing written")
            return
        counts = ", ".join(f"{n} {kind}" for kind, n in summary.records.items() if n)
        typer.echo(f"imported into {summary.principal}: {counts or 'nothing'}")
        if summary.new_ids:
            typer.echo(f"{summary.new_ids} ids were another principal's: written under new ids")
