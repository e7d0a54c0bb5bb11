"""Formation commands: consolidate, correct, forget, rederive, expire, events."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from graphmem.cli._common import (
    DataDirOption,
    JsonOption,
    LimitOption,
    PrincipalOption,
    handles_errors,
    open_memory,
    print_json,
    print_result,
    progress_bar,
    progress_task,
    time_option,
)
from graphmem.explore.text import hint_outcome_line, iso_time
from graphmem.models import (
    MAX_SEQ,
    ConsolidationResult,
    CorrectionResult,
    ExpiryResult,
    RederivationSummary,
)


def _summary(result: ConsolidationResult) -> str:
    if result.already_consolidated:
        return f"{result.episode_id}: already consolidated"
    counts = {
        "created": len(result.created),
        "reinforced": len(result.reinforced),
        "activated": len(result.activated),
        "promoted": len(result.promoted),
        "superseded": len(result.superseded),
        "conflicts": len(result.conflicts),
        "rejected": len(result.rejected),
    }
    done = ", ".join(f"{n} {name}" for name, n in counts.items() if n)
    return f"{result.episode_id}: {done or 'nothing to form'}"


def _corrected(result: CorrectionResult) -> str:
    successor = f" -> {result.new_belief_id}" if result.new_belief_id else ""
    return f"{result.kind} {result.belief_id}{successor} (rejection {result.rejection_id})"


def _rederived(summary: RederivationSummary) -> str:
    return "\n".join(f"{name:<16} {value}" for name, value in summary.model_dump().items())


def _expired(result: ExpiryResult) -> str:
    at = result.now.isoformat()
    if result.dry_run:
        lines = [
            f"expiry at {at} (dry run, nothing written): would demote "
            f"{result.demoted_count}, would retire {result.retired_count}"
        ]
        verbs = ("would demote", "would retire")
    else:
        lines = [f"expiry at {at}: {result.demoted_count} demoted, {result.retired_count} retired"]
        verbs = ("demoted", "retired")
    lines += [f"{verbs[0]} {belief_id}" for belief_id in result.demoted]
    lines += [f"{verbs[1]} {belief_id}" for belief_id in result.retired]
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    """Adds the formation commands to ``app``."""

    @app.command()
    @handles_errors
    def consolidate(
        episode_ids: Annotated[
            list[str] | None,
            typer.Argument(metavar="[EPISODE_ID]...", help="Default: every one not yet done."),
        ] = None,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Form beliefs from episodes' structured parts, through the formation gates.

        With no ids, the open formation hints go first: the episodes on a subject
        recall kept missing are consolidated before the rest, and the hints consumed.
        """
        with open_memory(principal, data_dir) as memory:
            outcomes = [] if episode_ids else memory.consolidate_hints()
            results = list(
                {r.episode_id: r for outcome in outcomes for r in outcome.results}.values()
            )
            ids = list(episode_ids or memory.unconsolidated())
            with progress_bar(as_json) as bar:
                task = bar.add_task("consolidating", total=len(ids))
                for episode_id in ids:
                    results.append(memory.consolidate(episode_id))
                    bar.advance(task)
        if as_json:
            print_json([result.model_dump(mode="json") for result in results])
            return
        for outcome in outcomes:
            typer.echo(hint_outcome_line(outcome))
        for result in results:
            typer.echo(_summary(result))
        if not results:
            typer.echo("nothing to consolidate")

    @app.command()
    @handles_errors
    def forget(
        belief_id: Annotated[str, typer.Argument(metavar="ID", help="The belief to forget.")],
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Delete a belief and its text everywhere; only a tombstone of its digest stays."""
        with open_memory(principal, data_dir) as memory:
            memory.forget(belief_id)
        if as_json:
            print_json({"id": belief_id, "forgotten": True})
        else:
            typer.echo(f"forgot {belief_id}")

    @app.command()
    @handles_errors
    def correct(
        belief_id: Annotated[str, typer.Argument(metavar="ID", help="The belief to correct.")],
        kind: Annotated[
            str, typer.Option(help="not_true | changed | not_here | unspecified.")
        ] = "unspecified",
        project: Annotated[str | None, typer.Option(help="not_here: where it is wrong.")] = None,
        statement: Annotated[str | None, typer.Option(help="changed: what is true.")] = None,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Correct a belief; the correction survives re-derivation."""
        with open_memory(principal, data_dir) as memory:
            result = memory.correct(belief_id, kind, project=project, statement=statement)
        print_result(result, as_json, _corrected)

    @app.command()
    @handles_errors
    def rederive(
        policy: Annotated[str, typer.Option(help="The policy version to record.")],
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Form every belief again from all episodes, replaying corrections and tombstones."""
        with (
            open_memory(principal, data_dir) as memory,
            progress_task(as_json, "re-deriving") as report,
        ):
            summary = memory.rederive(policy, progress=report)
        print_result(summary, as_json, _rederived)

    @app.command()
    @handles_errors
    def expire(
        now: Annotated[
            str | None,
            typer.Option(help="ISO 8601 time with a zone to measure from (default: now)."),
        ] = None,
        dry_run: Annotated[
            bool, typer.Option("--dry-run", help="Write nothing; list what would change.")
        ] = False,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Demote formed beliefs no episode confirmed lately, and retire long-stale ones.

        Windows: GRAPHMEM_EXPIRY_STALE_DAYS (90) to stale, GRAPHMEM_EXPIRY_RETIRE_DAYS
        (90) more to retired. Beliefs stated with believe, and user authority, never expire.
        """
        moment = time_option(now, "--now", "now")
        with open_memory(principal, data_dir) as memory:
            result = memory.expire(moment, dry_run=dry_run)
        print_result(result, as_json, _expired)

    @app.command()
    @handles_errors
    def events(
        since: Annotated[
            int, typer.Option(min=0, max=MAX_SEQ, help="Only events after this seq.")
        ] = 0,
        limit: LimitOption = 100,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """The change log, oldest first: writes, reinforcements, promotions, rejections."""
        with open_memory(principal, data_dir) as memory:
            found = memory.events(since=since, limit=limit)
        if as_json:
            print_json(found)
            return
        for event in found:
            typer.echo(_describe(event))


def _describe(event: dict[str, Any]) -> str:
    extra = {
        key: event[key]
        for key in ("gate", "similar_to", "similarity", "episode_id", "other_id")
        if event.get(key) is not None
    }
    detail = f"  {json.dumps(extra, ensure_ascii=False)}" if extra else ""
    text = event.get("about") or event.get("statement")
    about = f"  {text}" if text else ""
    return (
        f"{event['seq']:>10}  {iso_time(event['at'])}  {event['type']:<20} "
        f"{event.get('node_id') or '-'}{about}{detail}"
    )
