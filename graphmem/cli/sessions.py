"""``graphmem sessions``: captured coding sessions, listed, shown and consolidated."""

from datetime import timedelta
from typing import Annotated

import typer

from graphmem.cli._common import (
    DataDirOption,
    JsonOption,
    PrincipalOption,
    handles_errors,
    open_memory,
    print_json,
)
from graphmem.explore.text import session_line, session_lines

app = typer.Typer(
    help="Captured coding sessions (agent hosts' hooks): list, show, consolidate, forget.",
    no_args_is_help=True,
)


@app.command("list")
@handles_errors
def list_(
    project: Annotated[str | None, typer.Option(help="Only this project's sessions.")] = None,
    principal: PrincipalOption = None,
    data_dir: DataDirOption = None,
    as_json: JsonOption = False,
) -> None:
    """List the captured sessions, newest first."""
    with open_memory(principal, data_dir) as memory:
        found = memory.sessions(project=project)
    if as_json:
        print_json([state.to_dict() for state in found])
        return
    typer.echo("\n".join(session_line(state) for state in found) or "no captured sessions")


@app.command()
@handles_errors
def show(
    session_id: Annotated[str, typer.Argument(metavar="ID", help="The host's session id.")],
    principal: PrincipalOption = None,
    data_dir: DataDirOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one session: state, counts, signals with evidence, episode, beliefs, rejections."""
    with open_memory(principal, data_dir) as memory:
        state = memory.session(session_id)
    if as_json:
        print_json(state.to_dict())
        return
    typer.echo("\n".join(session_lines(state)))


@app.command()
@handles_errors
def consolidate(
    session_id: Annotated[
        str | None,
        typer.Argument(metavar="[ID]", help="One session; without it, the sweep."),
    ] = None,
    idle_minutes: Annotated[
        int,
        typer.Option(min=0, help="The sweep takes a session without an end this quiet."),
    ] = 30,
    principal: PrincipalOption = None,
    data_dir: DataDirOption = None,
    as_json: JsonOption = False,
) -> None:
    """Consolidate a session now (without ID: every ended or idle one)."""
    with open_memory(principal, data_dir) as memory:
        done = (
            [memory.consolidate_session(session_id)]
            if session_id is not None
            else memory.consolidate_sessions(idle=timedelta(minutes=idle_minutes))
        )
    if as_json:
        print_json([state.to_dict() for state in done])
        return
    typer.echo(
        "\n".join("\n".join(session_lines(state)) for state in done) or "nothing to consolidate"
    )


@app.command()
@handles_errors
def forget(
    session_id: Annotated[str, typer.Argument(metavar="ID", help="The host's session id.")],
    principal: PrincipalOption = None,
    data_dir: DataDirOption = None,
    as_json: JsonOption = False,
) -> None:
    """Forget a session: its spool, its episodes, and the beliefs it formed (tombstoned)."""
    with open_memory(principal, data_dir) as memory:
        state = memory.forget_session(session_id)
    if as_json:
        print_json(state.to_dict())
        return
    typer.echo(
        f"forgot session {state.session_id}: {state.events} events, "
        f"{len(state.episodes) + len(state.segments)} episodes, {len(state.formed)} beliefs"
    )
