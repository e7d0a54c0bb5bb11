"""``graphmem install|uninstall HOST`` and ``graphmem doctor``.

They attach graphmem to an agent host's hooks and MCP servers, take it off again, and
check that it works (docs/serving-agents.md).
"""

from pathlib import Path
from typing import Annotated, Literal

import typer

from graphmem.cli._common import JsonOption, handles_errors, print_json
from graphmem.install import plan
from graphmem.install.doctor import diagnose

HostArgument = Annotated[
    str, typer.Argument(help="The agent host: claude-code, codex, gemini or cursor.")
]
ScopeOption = Annotated[
    str,
    typer.Option(
        "--scope",
        help="user: your settings in the home directory; project: this directory's.",
    ),
]
DryRunOption = Annotated[
    bool, typer.Option("--dry-run", help="Print the changes as a diff; write nothing.")
]


def _scope(value: str) -> Literal["user", "project"]:
    if value == "user":
        return "user"
    if value == "project":
        return "project"
    raise typer.BadParameter(f"{value!r}: use user or project", param_hint="--scope")


def _report(changes: list[plan.Change], dry_run: bool, as_json: bool, notes: list[str]) -> None:
    """Applies (unless a dry run) and says what changed."""
    done = [change for change in changes if change.changed]
    if not dry_run:
        done = plan.apply(changes)
    if as_json:
        print_json(
            {
                "dry_run": dry_run,
                "changed": [
                    {
                        "path": str(change.path),
                        "action": _action(change),
                        "backup": str(change.backup) if change.backup else None,
                        "diff": change.diff(),
                    }
                    for change in done
                ],
                "unchanged": [str(c.path) for c in changes if not c.changed],
                "notes": notes,
            }
        )
        return
    for change in done:
        if dry_run:
            typer.echo(change.diff(), nl=False)
            continue
        saved = f" (backup: {change.backup})" if change.backup else ""
        typer.echo(f"{_action(change)} {change.path}{saved}")
    for change in changes:
        if not change.changed and change.before is not None:
            typer.echo(f"unchanged {change.path}")
    if dry_run:
        typer.echo("dry run: nothing was written", err=True)
    for note in notes:
        typer.echo(note)


def _action(change: plan.Change) -> str:
    if change.before is None:
        return "created"
    return "removed" if change.after is None else "updated"


def register(app: typer.Typer) -> None:
    """Adds ``install``, ``uninstall`` and ``doctor`` to the CLI."""

    @app.command()
    @handles_errors
    def install(
        host: HostArgument,
        scope: ScopeOption = "user",
        http: Annotated[
            str | None,
            typer.Option(
                "--http",
                metavar="URL",
                help="A running `graphmem serve` (http://127.0.0.1:8765): hooks and MCP "
                "go to it, with the token from GRAPHMEM_HOOK_TOKEN.",
                show_default=False,
            ),
        ] = None,
        dry_run: DryRunOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Add graphmem's hooks and MCP server to an agent host's settings.

        Keeps every other entry byte for byte, writes a backup beside each file it
        changes, and changes nothing when run again.
        """
        spec = plan.host_spec(host)
        want = plan.wanted(spec, plan.server_url(http))
        changes = plan.install(want, _scope(scope), Path.home(), Path.cwd())
        notes = []
        if want.forwards:
            notes.append(
                f"{host} has no http hooks: its hook commands forward to {http} "
                "(GRAPHMEM_HOOK_URL; set GRAPHMEM_HOOK_TOKEN_FILE for the token)"
            )
        if host == "codex":
            notes.append("Codex runs new hooks once you have reviewed and trusted them")
        _report(changes, dry_run, as_json, notes)

    @app.command()
    @handles_errors
    def uninstall(
        host: HostArgument,
        scope: ScopeOption = "user",
        dry_run: DryRunOption = False,
        as_json: JsonOption = False,
    ) -> None:
        """Remove exactly what `graphmem install` added (graphmem's hooks and MCP server)."""
        spec = plan.host_spec(host)
        changes = plan.uninstall(spec, _scope(scope), Path.home(), Path.cwd())
        _report(changes, dry_run, as_json, [])

    @app.command()
    @handles_errors
    def doctor(
        host: Annotated[
            str | None,
            typer.Argument(help="The agent host (default: every one graphmem is installed for)."),
        ] = None,
        scope: ScopeOption = "user",
        as_json: JsonOption = False,
    ) -> None:
        """Check an installation end to end; exit 1 when any check fails.

        Settings, hook command, hook server and token, Neo4j, and capture in this project.
        """
        hosts = [plan.host_spec(host).name] if host is not None else []
        checks = diagnose(hosts, _scope(scope), Path.home(), Path.cwd())
        if as_json:
            print_json([check.to_dict() for check in checks])
        else:
            for check in checks:
                typer.echo(f"{'ok' if check.ok else 'PROBLEM'}  {check.check}: {check.message}")
        if not all(check.ok for check in checks):
            raise typer.Exit(1)
