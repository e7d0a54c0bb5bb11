"""``graphmem hook HOST``: one agent-host hook event on stdin (docs/capture.md).

The console script runs :func:`graphmem.capture.hook.main` before typer is imported
(:mod:`graphmem.launcher`), so an agent host pays only for the standard library; this
command is the same hook for ``python -m graphmem`` and for ``--help``.
"""

from typing import Annotated

import typer

from graphmem.capture.hook import main as run_hook


def register(app: typer.Typer) -> None:
    """Adds ``hook`` to the CLI."""

    @app.command()
    def hook(
        host: Annotated[
            str, typer.Argument(help="The agent host: claude-code, codex, gemini or cursor.")
        ],
    ) -> None:
        """Capture one hook event from stdin; always exits 0 (failures go to hooks.log)."""
        raise typer.Exit(run_hook([host]))
