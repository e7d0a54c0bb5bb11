"""Recall commands: recall (beliefs), search (episodes), trace, reembed, reindex."""

import json
from datetime import datetime
from typing import Annotated

import typer

from graphmem.cli._common import (
    AllProjectsOption,
    CeilingOption,
    DataDirOption,
    JsonOption,
    PrincipalOption,
    chosen_project,
    handles_errors,
    open_memory,
    print_json,
    progress_task,
    time_option,
)
from graphmem.models import EpisodeSearchResult, RecallResult
from graphmem.vectors.stored import REEMBED_BATCH

ProjectOption = Annotated[
    str | None, typer.Option(help="The project asked about (weights, anchors).")
]
KOption = Annotated[int, typer.Option("--k", help="At most this many items (1-200).")]
ArmsOption = Annotated[
    str, typer.Option(help="Comma-separated arms: lexical,semantic,graph,structured.")
]
AsOfOption = Annotated[
    str | None, typer.Option("--as-of", help="ISO 8601 time with a zone: answer as of then.")
]


def _as_of(value: str | None) -> datetime | None:
    return time_option(value, "--as-of", "as_of")


def _arm_list(arms: str) -> list[str]:
    return [arm.strip() for arm in arms.split(",") if arm.strip()]


def _show(result: RecallResult | EpisodeSearchResult, as_json: bool) -> None:
    """Prints the rendered block, or items, conflicts, counts and trace id as JSON."""
    if not as_json:
        typer.echo(result.render(), nl=False)
        return
    conflicts = result.conflicts if isinstance(result, RecallResult) else []
    print_json(
        {
            "items": [item.model_dump(mode="json") for item in result.items],
            "conflicts": [conflict.model_dump(mode="json") for conflict in conflicts],
            "withheld": result.withheld,
            "flagged": result.flagged,
            "trace_id": result.trace_id,
        }
    )


def register(app: typer.Typer) -> None:
    """Adds the recall commands to ``app``."""

    @app.command()
    @handles_errors
    def recall(
        query: Annotated[str, typer.Argument(help="What you want to know.")],
        project: ProjectOption = None,
        all_projects: AllProjectsOption = False,
        k: KOption = 10,
        arms: ArmsOption = "lexical,semantic,graph,structured",
        as_of: AsOfOption = None,
        paths: Annotated[
            list[str] | None, typer.Option("--paths", help="A file you work on (repeatable).")
        ] = None,
        symbols: Annotated[
            list[str] | None, typer.Option("--symbol", help="A symbol key or name (repeatable).")
        ] = None,
        subjects: Annotated[
            list[str] | None, typer.Option("--subject", help="An exact subject (repeatable).")
        ] = None,
        decay: Annotated[
            str, typer.Option(help="none, linear or exponential (by writes since stated).")
        ] = "none",
        ceiling: CeilingOption = "confidential",
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Recall the beliefs that answer QUERY, best first."""
        with open_memory(principal, data_dir) as memory:
            result = memory.recall(
                query,
                project=chosen_project(project, all_projects),
                paths=paths,
                symbols=symbols,
                subjects=subjects,
                k=k,
                arms=_arm_list(arms),
                as_of=_as_of(as_of),
                decay=decay,
                ceiling=ceiling,
            )
        _show(result, as_json)

    @app.command()
    @handles_errors
    def search(
        query: Annotated[str, typer.Argument(help="What happened that you want to find.")],
        project: Annotated[str | None, typer.Option(help="Only this project.")] = None,
        k: KOption = 10,
        arms: Annotated[
            str, typer.Option(help="Comma-separated arms: lexical,semantic,graph,time.")
        ] = "lexical,semantic,graph,time",
        as_of: AsOfOption = None,
        ceiling: CeilingOption = "confidential",
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Search episodes for QUERY, best first."""
        with open_memory(principal, data_dir) as memory:
            result = memory.search_episodes(
                query,
                project=project,
                k=k,
                arms=_arm_list(arms),
                as_of=_as_of(as_of),
                ceiling=ceiling,
            )
        _show(result, as_json)

    @app.command()
    @handles_errors
    def snapshot(
        project: Annotated[str, typer.Option(help="The project the session starts in.")],
        profile: Annotated[
            str, typer.Option(help="interactive (40 items), long (80) or child (15).")
        ] = "interactive",
        ceiling: CeilingOption = "confidential",
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """What to load at the start of a session: durable preferences first."""
        with open_memory(principal, data_dir) as memory:
            result = memory.snapshot(project, profile, ceiling=ceiling)
        _show(result, as_json)

    @app.command()
    @handles_errors
    def trace(
        trace_id: Annotated[str, typer.Argument(metavar="ID")],
        operator: Annotated[
            bool, typer.Option("--operator", help="Include arm ranks, latencies, policy.")
        ] = False,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Show what a recall rendered (and, with --operator, how it ranked)."""
        with open_memory(principal, data_dir) as memory:
            shown = memory.get_trace(trace_id, operator=operator)
        if as_json:
            print_json(shown)
            return
        for key in sorted(shown):
            value = shown[key]
            text = value if isinstance(value, str) else json.dumps(value, default=str)
            typer.echo(f"{key:<28} {text}")

    @app.command()
    @handles_errors
    def reembed(
        batch: Annotated[
            int, typer.Option(min=1, max=10_000, help="Items embedded per transaction.")
        ] = REEMBED_BATCH,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Embed and store the vectors of every item stored without this model's.

        The migration after a model change, or for memory written before writes stored
        their vectors. Batches commit one by one: stopped, it resumes where it stopped.
        """
        with (
            open_memory(principal, data_dir) as memory,
            progress_task(as_json, "embedding") as report,
        ):
            done = memory.reembed(batch=batch, progress=report)
        if as_json:
            print_json({"embedded": done})
        else:
            typer.echo(f"embedded {done['belief']} beliefs and {done['episode']} episodes")

    @app.command()
    @handles_errors
    def reindex(
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Rebuild the local views from the graph; relink entities; raise stored secrets."""
        with open_memory(principal, data_dir) as memory:
            replayed = memory.reindex()
        if as_json:
            print_json({"replayed_events": replayed})
        else:
            typer.echo(
                f"belief: {replayed['belief']} events, episode: {replayed['episode']} events, "
                f"{replayed['entities']} nodes relinked to entities, "
                f"{replayed['secrets']} raised to secret"
            )
