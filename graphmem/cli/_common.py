"""What every command shares: options, output, error handling and exit codes."""

import functools
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from typing import Annotated, Any, ParamSpec, Protocol, TypeVar

import typer
from pydantic import BaseModel
from rich.progress import Progress

from graphmem.client import GraphMem
from graphmem.errors import GraphMemError, InvalidInput
from graphmem.models import MAX_BATCH_ROWS
from graphmem.settings import resolve_data_dir

P = ParamSpec("P")
R = TypeVar("R")
Shown = TypeVar("Shown", bound=BaseModel)

JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
PrincipalOption = Annotated[
    str | None,
    typer.Option(
        "--principal",
        envvar="GRAPHMEM_PRINCIPAL",
        help="Whose memory (also GRAPHMEM_PRINCIPAL).",
        show_default=False,
    ),
]
AllProjectsOption = Annotated[
    bool, typer.Option("--all-projects", help="Across every project of the principal.")
]
CeilingOption = Annotated[
    str,
    typer.Option(help="The most sensitive memory shown: public, internal, confidential or secret."),
]
LimitOption = Annotated[int, typer.Option(min=1, max=MAX_BATCH_ROWS, help="At most this many.")]
WorkersOption = Annotated[
    int | None, typer.Option(min=1, help="Parser processes (default: all cores).")
]
DataDirOption = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        envvar="GRAPHMEM_DATA_DIR",
        help="graphmem's data directory (also GRAPHMEM_DATA_DIR).",
        show_default=False,
    ),
]


def chosen_project(project: str | None, all_projects: bool) -> str | None:
    """The project a command is about: ``--project``, or None for ``--all-projects``.

    Raises:
        InvalidInput: Neither or both were given.
    """
    if (project is None) == (not all_projects):
        raise InvalidInput(
            "--project: say which project you ask about, or --all-projects (not both)",
            field="project",
            rule="required",
        )
    return None if all_projects else project


def handles_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Prints a GraphMemError (JSON with ``--json``) on stderr and exits with its code."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except GraphMemError as error:
            if kwargs.get("as_json"):
                typer.echo(json.dumps({"error": error.to_dict()}, sort_keys=True), err=True)
            else:
                typer.echo(f"error: {error.message}", err=True)
            raise typer.Exit(error.exit_code) from None

    return wrapper


def time_option(value: str | None, option: str, field: str) -> datetime | None:
    """The time an ISO 8601 option gives (None when not given).

    Raises:
        InvalidInput: ``value`` is not an ISO 8601 time (``option`` names the option).
    """
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise InvalidInput(
            f"{option}: {value!r} is not an ISO 8601 time", field=field, rule="iso8601"
        ) from None


def _json_value(value: object) -> str:
    """How JSON shows what it has no type for: times in ISO 8601, the rest as text."""
    if isinstance(value, datetime | date):
        return value.isoformat()
    return str(value)


def print_json(data: Any) -> None:
    """Prints ``data`` as sorted, indented JSON (times in ISO 8601)."""
    typer.echo(json.dumps(data, indent=2, sort_keys=True, default=_json_value))


def print_result(result: Shown, as_json: bool, describe: Callable[[Shown], str]) -> None:
    """Prints one result: as JSON with ``--json``, else in the words of ``describe``."""
    if as_json:
        print_json(result.model_dump(mode="json"))
    else:
        typer.echo(describe(result))


def print_listing(
    found: Sequence[Shown], as_json: bool, describe: Callable[[Shown], str], empty: str
) -> None:
    """Prints a listing: a JSON list with ``--json``, else a line each or ``empty``.

    Args:
        found: What the command found, in the order shown.
        as_json: Whether ``--json`` was given.
        describe: One item's line.
        empty: The line printed when nothing was found.
    """
    if as_json:
        print_json([item.model_dump(mode="json") for item in found])
        return
    for item in found:
        typer.echo(describe(item))
    if not found:
        typer.echo(empty)


@contextmanager
def open_memory(principal: str | None, data_dir: Path | None = None) -> Iterator[GraphMem]:
    """Opens a client for the command, closing it afterwards."""
    with GraphMem(principal, data_dir=resolve_data_dir(data_dir)) as memory:
        yield memory


def progress_bar(as_json: bool) -> Progress:
    """A transient progress bar on stderr, off for ``--json`` and when not a terminal."""
    return Progress(disable=as_json or not sys.stderr.isatty(), transient=True)


class ReportProgress(Protocol):
    """Reports how far a long call is: how much is done and, once known, of how much."""

    def __call__(self, done: int, total: int | None = None) -> None: ...


@contextmanager
def progress_task(as_json: bool, description: str) -> Iterator[ReportProgress]:
    """A :func:`progress_bar` with one task of unknown size, for one long call.

    Args:
        as_json: Whether ``--json`` was given (the bar is off then).
        description: What the task is called on the bar.

    Yields:
        What the call reports its progress to.
    """
    with progress_bar(as_json) as bar:
        task = bar.add_task(description, total=None)

        def report(done: int, total: int | None = None) -> None:
            bar.update(task, completed=done, total=total)

        yield report
