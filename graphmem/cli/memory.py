"""Memory commands: init, remember, believe, supersede, show, history, beliefs."""

import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from graphmem import limits
from graphmem.admin import Admin
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
)
from graphmem.errors import InvalidInput, NotFound
from graphmem.limits import MAX_LINE_BYTES
from graphmem.models import ID_PATTERN, Belief, Episode, Sensitivity
from graphmem.recall.ranking import confidence_band
from graphmem.trust.sensitivity import parse_sensitivity
from graphmem.validation import PATTERN_WORDS

EvidenceOption = Annotated[
    list[str] | None, typer.Option("--evidence", help="Episode id (repeatable).")
]
IdempotencyKeyOption = Annotated[str | None, typer.Option(help="Makes a retry a no-op.")]
AuthorityOption = Annotated[str, typer.Option(help="user|agent|tool|external.")]


def _read_json(source: str) -> Any:
    """The JSON in FILE (``-``: stdin), held to the input-limits policy."""
    try:
        data = (
            sys.stdin.buffer.read(MAX_LINE_BYTES + 1)
            if source == "-"
            else Path(source).read_bytes()
        )
    except OSError as error:
        raise InvalidInput(f"FILE: cannot read {source}: {error.strerror}", field="FILE") from None
    return limits.loads(data, "FILE")


def _describe_belief(belief: Belief) -> str:
    lines = [
        f"belief {belief.id}",
        f"  statement:   {belief.statement}",
        f"  type:        {belief.type}   subject: {belief.subject or '-'}",
        f"  confidence:  {belief.confidence:.2f}   authority: {belief.authority}"
        f"   portability: {belief.portability}",
        f"  state:       {belief.state}   scope: {belief.scope}"
        f"   origins: {', '.join(belief.origins)}",
        f"  valid:       {belief.valid_from.isoformat()} .. "
        f"{belief.valid_to.isoformat() if belief.valid_to else 'now'}",
    ]
    if belief.last_confirmed_at:
        lines.append(f"  confirmed:   {belief.last_confirmed_at.isoformat()}")
    if belief.stale_since:
        kept = "" if belief.is_live else " (then retired)"
        lines.append(f"  stale:       since {belief.stale_since.isoformat()}{kept}")
    if belief.anchor_key:
        lines.append(f"  anchor:      {belief.anchor_key}")
    if belief.supersedes:
        lines.append(f"  supersedes:  {belief.supersedes}")
    if belief.superseded_by:
        lines.append(f"  superseded:  by {belief.superseded_by}")
    provenance = ", ".join(f"{e.episode_id} ({e.role})" for e in belief.evidence) or "-"
    lines.append(f"  provenance:  {provenance}")
    return "\n".join(lines)


def _describe_episode(episode: Episode) -> str:
    lines = [
        f"episode {episode.id}",
        f"  title:    {episode.title}",
        f"  project:  {episode.project}   kind: {episode.kind}   outcome: {episode.outcome}"
        f"   trust: {episode.trust}",
    ]
    if episode.parent:
        lines.append(f"  part of:  {episode.parent}")
    for label, items in (
        ("observed", episode.observations),
        ("inferred", episode.inferences),
        ("decided", episode.decisions),
        ("failed", episode.failed_attempts),
        ("open", episode.unresolved),
        ("paths", episode.paths),
        ("commits", episode.commits),
    ):
        for item in items:
            lines.append(f"  {label + ':':<9} {item}")
    return "\n".join(lines)


def _within(belief: Belief, ceiling: Sensitivity) -> Belief:
    """The belief as a listing may print it: above ``ceiling``, without its statement."""
    if belief.sensitivity.rank <= ceiling.rank:
        return belief
    return belief.model_copy(update={"statement": f"[{belief.sensitivity.value}]"})


def register(app: typer.Typer) -> None:
    """Adds the memory commands to ``app``."""

    @app.command()
    @handles_errors
    def init(data_dir: DataDirOption = None, as_json: JsonOption = False) -> None:
        """Apply the schema migrations (constraints and indexes)."""
        with Admin(data_dir=data_dir) as admin:
            applied = admin.applied
        if as_json:
            print_json({"applied": applied})
        else:
            typer.echo(
                f"applied migrations: {', '.join(applied)}" if applied else "schema is current"
            )

    @app.command()
    @handles_errors
    def remember(
        source: Annotated[
            str, typer.Argument(metavar="FILE|-", help="Episode JSON, or - for stdin.")
        ],
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Record one episode from a JSON object; prints its id."""
        episode = _read_json(source)
        with open_memory(principal, data_dir) as memory:
            episode_id = memory.remember(episode)
        print_json({"id": episode_id}) if as_json else typer.echo(episode_id)

    @app.command()
    @handles_errors
    def believe(
        statement: Annotated[str, typer.Argument(help="What is believed true.")],
        project: Annotated[str, typer.Option(help="Project it was learned in.")],
        type_: Annotated[
            str,
            typer.Option("--type", help="fact|preference|lesson|decision|dead_end|pattern|gotcha."),
        ],
        subject: Annotated[str | None, typer.Option(help="What it is about.")] = None,
        confidence: Annotated[float, typer.Option(help="In [0, 1].")] = 0.5,
        portability: Annotated[
            str | None, typer.Option(help="portable|contextual|local (at most the type's).")
        ] = None,
        authority: AuthorityOption = "agent",
        evidence: EvidenceOption = None,
        anchor: Annotated[str | None, typer.Option(help="Symbol key the belief is about.")] = None,
        anchor_path: Annotated[
            str | None, typer.Option(help="File of the symbol (with --anchor-symbol).")
        ] = None,
        anchor_symbol: Annotated[
            str | None, typer.Option(help="Name or qualified name in --anchor-path.")
        ] = None,
        anchor_unverifiable: Annotated[
            bool,
            typer.Option("--anchor-unverifiable", help="Keep a key that cannot be checked."),
        ] = False,
        idempotency_key: IdempotencyKeyOption = None,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """State a belief; prints its id."""
        anchor_ref: str | dict[str, str | None] | None = anchor
        if anchor_path is not None or anchor_symbol is not None:
            anchor_ref = {"key": anchor, "path": anchor_path, "symbol": anchor_symbol}
        with open_memory(principal, data_dir) as memory:
            belief_id = memory.believe(
                statement,
                project=project,
                type=type_,
                subject=subject,
                confidence=confidence,
                portability=portability,
                authority=authority,
                evidence=evidence or [],
                anchor=anchor_ref,
                anchor_unverifiable=anchor_unverifiable,
                idempotency_key=idempotency_key,
            )
        print_json({"id": belief_id}) if as_json else typer.echo(belief_id)

    @app.command()
    @handles_errors
    def supersede(
        old_id: Annotated[str, typer.Argument(help="The belief being replaced.")],
        statement: Annotated[str, typer.Argument(help="The new statement.")],
        reason: Annotated[str, typer.Option(help="Why it changed.")],
        project: Annotated[str | None, typer.Option(help="Default: the old one's.")] = None,
        type_: Annotated[str | None, typer.Option("--type", help="Default: the old one's.")] = None,
        subject: Annotated[str | None, typer.Option(help="Default: the old one's.")] = None,
        confidence: Annotated[float | None, typer.Option(help="Default: the old one's.")] = None,
        authority: AuthorityOption = "agent",
        evidence: EvidenceOption = None,
        idempotency_key: IdempotencyKeyOption = None,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Replace a belief with a new statement, recording why; prints the new id."""
        changes: dict[str, Any] = {
            "statement": statement,
            "authority": authority,
            "evidence": evidence or [],
        }
        for name, value in (
            ("project", project),
            ("type", type_),
            ("subject", subject),
            ("confidence", confidence),
            ("idempotency_key", idempotency_key),
        ):
            if value is not None:
                changes[name] = value
        with open_memory(principal, data_dir) as memory:
            new_id = memory.supersede(old_id, changes, reason)
        print_json({"id": new_id}) if as_json else typer.echo(new_id)

    @app.command()
    @handles_errors
    def retire(
        belief_id: Annotated[str, typer.Argument(metavar="ID", help="The belief to retire.")],
        reason: Annotated[str, typer.Option(help="Why it is no longer true.")],
        authority: AuthorityOption = "agent",
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Retire a belief that is no longer true: it leaves live recall, history stays."""
        with open_memory(principal, data_dir) as memory:
            changed = memory.retire(belief_id, reason, actor=authority)
        if as_json:
            print_json({"id": belief_id, "retired": changed})
        else:
            typer.echo(f"retired {belief_id}" if changed else f"{belief_id} was already retired")

    @app.command()
    @handles_errors
    def show(
        node_id: Annotated[str, typer.Argument(metavar="ID", help="A belief or episode id.")],
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Show a belief (with its provenance episode ids) or an episode."""
        if not re.fullmatch(ID_PATTERN, node_id):
            raise InvalidInput(
                f"ID: {node_id!r} is not a graphmem id: {PATTERN_WORDS[ID_PATTERN]}",
                field="ID",
                rule="id",
            )
        with open_memory(principal, data_dir) as memory:
            try:
                node: Belief | Episode = memory.get_belief(node_id)
            except NotFound:
                try:
                    node = memory.get_episode(node_id)
                except NotFound:
                    raise NotFound(
                        f"no belief or episode {node_id} for this principal",
                        field="ID",
                        rule="exists",
                    ) from None
        if as_json:
            kind = "belief" if isinstance(node, Belief) else "episode"
            print_json({"kind": kind, **node.model_dump(mode="json")})
        elif isinstance(node, Belief):
            typer.echo(_describe_belief(node))
        else:
            typer.echo(_describe_episode(node))

    @app.command()
    @handles_errors
    def history(
        belief_id: Annotated[str, typer.Argument(metavar="ID", help="Any belief of the chain.")],
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Show a belief's supersession chain, oldest first."""
        with open_memory(principal, data_dir) as memory:
            chain = memory.history(belief_id)
        if as_json:
            print_json([{"reason": e.reason, **e.belief.model_dump(mode="json")} for e in chain])
            return
        for position, entry in enumerate(chain, start=1):
            live = "live" if entry.belief.is_live else "superseded"
            typer.echo(f"{position}. {entry.belief.id} [{live}] {entry.belief.statement}")
            if entry.reason:
                typer.echo(f"   superseded because: {entry.reason}")

    @app.command()
    @handles_errors
    def beliefs(
        project: Annotated[str | None, typer.Option(help="Learned in this project.")] = None,
        all_projects: AllProjectsOption = False,
        type_: Annotated[str | None, typer.Option("--type", help="Only this type.")] = None,
        state: Annotated[str | None, typer.Option(help="provisional|active|retired.")] = None,
        scope: Annotated[str | None, typer.Option(help="project|principal.")] = None,
        anchor_state: Annotated[
            str | None,
            typer.Option(help="unanchored|verified|drifted|vanished|unverifiable."),
        ] = None,
        promoted: Annotated[
            bool, typer.Option("--promoted", help="Only beliefs promoted to principal scope.")
        ] = False,
        conflicted: Annotated[
            bool, typer.Option("--conflicted", help="Only beliefs in an open conflict.")
        ] = False,
        include_superseded: Annotated[
            bool, typer.Option("--include-superseded", help="Also superseded beliefs.")
        ] = False,
        limit: Annotated[int, typer.Option(help="At most this many (1-10000).")] = 100,
        ceiling: CeilingOption = "confidential",
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """List beliefs, oldest first, with project, scope, state and anchor state.

        A live belief expiry demoted shows the state stale (its JSON keeps state and
        stale_since).

        A belief above --ceiling is listed with its statement shown as [secret].
        """
        asked = chosen_project(project, all_projects)
        shown = parse_sensitivity(ceiling, "ceiling")
        with open_memory(principal, data_dir) as memory:
            found = memory.list_beliefs(
                project=asked,
                type=type_,
                state=state,
                scope=scope,
                include_superseded=include_superseded,
                anchor_state=anchor_state,
                promoted=promoted,
                conflicted=conflicted,
                limit=limit,
            )
            statuses = memory.anchor_statuses([belief.id for belief in found], asked)
        rows = [
            (_within(belief, shown), status.state.value, confidence_band(belief.confidence))
            for belief, status in zip(found, statuses, strict=True)
        ]
        if as_json:
            print_json(
                [
                    {**b.model_dump(mode="json"), "anchor_state": anchor, "confidence_band": band}
                    for b, anchor, band in rows
                ]
            )
            return
        if rows:
            typer.echo(
                f"{'id':<36}  {'project':<16} {'scope':<9} {'state':<11} {'anchor':<12} "
                f"{'conf':<6} {'type':<10} statement"
            )
        for belief, anchor, band in rows:
            state_text = (
                "superseded"
                if belief.superseded_at
                else "stale"
                if belief.is_stale
                else belief.state.value
            )
            typer.echo(
                f"{belief.id}  {belief.project:<16} {belief.scope.value:<9} {state_text:<11} "
                f"{anchor:<12} {band:<6} {belief.type.value:<10} {belief.statement}"
            )
        if not found:
            typer.echo("no beliefs match")
