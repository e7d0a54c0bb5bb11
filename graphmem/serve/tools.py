"""The MCP tools: each calls one client method and says what it did twice.

Once as the text an agent reads, once as structured content for programs.

The text of ``recall``, ``search_episodes`` and ``snapshot`` is the client's rendered,
byte-stable block; the other tools answer in one or a few plain lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from graphmem.client import GraphMem
from graphmem.errors import InvalidInput
from graphmem.explore.text import (
    change_line,
    citation_line,
    hint_line,
    overview_lines,
    session_line,
    session_lines,
)
from graphmem.models import ConsolidationResult, CorrectionKind, Sensitivity
from graphmem.serve import schemas


@dataclass(frozen=True)
class Defaults:
    """What the server fills in when a call leaves it out."""

    project: str | None = None
    """The default project (``graphmem mcp --project``, else the work tree's name)."""
    code_root: Path | None = None
    """Where ``index_code`` may read: the default root, and the only tree it may index
    (None: the tool is not offered)."""
    ceiling: Sensitivity = Sensitivity.CONFIDENTIAL
    """The most sensitive memory any call may see (``--ceiling``); a call may ask for
    less, never more."""


@dataclass(frozen=True)
class ToolOutput:
    """What one tool call answers."""

    text: str
    structured: BaseModel


def _project(given: str | None, defaults: Defaults) -> str:
    project = given if given is not None else defaults.project
    if project is None:
        raise InvalidInput(
            "project: required (this server has no default project)",
            field="project",
            rule="required",
        )
    return project


def _scoped(given: str | None, all_projects: bool, defaults: Defaults) -> str | None:
    return None if all_projects else (given if given is not None else defaults.project)


def _ceiling(asked: Sensitivity | None, defaults: Defaults) -> Sensitivity:
    if asked is None:
        return defaults.ceiling
    if asked.rank > defaults.ceiling.rank:
        raise InvalidInput(
            f"ceiling: this server shows at most {defaults.ceiling.value} memory, "
            f"not {asked.value}",
            field="ceiling",
            rule="server ceiling",
        )
    return asked


def _consolidation_lines(result: ConsolidationResult) -> list[str]:
    if result.already_consolidated:
        return [f"episode {result.episode_id} was consolidated before: nothing changed"]
    lines = [f"consolidated episode {result.episode_id}"]
    for label, ids in (
        ("created", result.created),
        ("reinforced", result.reinforced),
        ("activated", result.activated),
        ("promoted", result.promoted),
    ):
        if ids:
            lines.append(f"  {label}: {', '.join(ids)}")
    for change in result.superseded:
        lines.append(f"  superseded: {change.old} by {change.new}")
    for conflict in result.conflicts:
        lines.append(f"  conflict: {conflict.a} vs {conflict.b}")
    for rejected in result.rejected:
        lines.append(f"  rejected ({rejected.gate}): {rejected.statement}")
    return lines


def remember(mem: GraphMem, args: schemas.RememberArguments, defaults: Defaults) -> ToolOutput:
    """Records an episode, and consolidates it when asked."""
    episode = args.model_dump(exclude={"consolidate"}, exclude_unset=True)
    episode["project"] = _project(args.project, defaults)
    episode_id = mem.remember(episode)
    lines = [f"episode {episode_id}"]
    consolidation = None
    if args.consolidate:
        consolidation = mem.consolidate(episode_id)
        lines += _consolidation_lines(consolidation)
    return ToolOutput(
        "\n".join(lines),
        schemas.EpisodeRecorded(episode_id=episode_id, consolidation=consolidation),
    )


def believe(mem: GraphMem, args: schemas.BelieveArguments, defaults: Defaults) -> ToolOutput:
    """States a belief."""
    fields = args.model_dump(exclude_unset=True)
    fields["project"] = _project(args.project, defaults)
    belief_id = mem.believe(**fields)
    return ToolOutput(f"belief {belief_id}", schemas.BeliefStated(belief_id=belief_id))


def recall(mem: GraphMem, args: schemas.RecallArguments, defaults: Defaults) -> ToolOutput:
    """Recalls beliefs; the text is the rendered block."""
    result = mem.recall(
        args.query,
        project=_scoped(args.project, args.all_projects, defaults),
        paths=args.paths,
        symbols=args.symbols,
        subjects=args.subjects,
        types=args.types,
        as_of=args.as_of,
        k=args.k,
        arms=args.arms,
        decay=args.decay,
        ceiling=_ceiling(args.ceiling, defaults),
    )
    return ToolOutput(result.rendered, schemas.Recalled.of(result))


def search_episodes(
    mem: GraphMem, args: schemas.SearchEpisodesArguments, defaults: Defaults
) -> ToolOutput:
    """Finds episodes; the text is the rendered block."""
    result = mem.search_episodes(
        args.query,
        project=_scoped(args.project, args.all_projects, defaults),
        as_of=args.as_of,
        k=args.k,
        arms=args.arms,
        ceiling=_ceiling(args.ceiling, defaults),
    )
    return ToolOutput(result.rendered, schemas.Recalled.of(result))


def snapshot(mem: GraphMem, args: schemas.SnapshotArguments, defaults: Defaults) -> ToolOutput:
    """The session-start snapshot of a project; the text is the rendered block."""
    result = mem.snapshot(
        _project(args.project, defaults), args.profile, ceiling=_ceiling(args.ceiling, defaults)
    )
    return ToolOutput(result.rendered, schemas.Recalled.of(result))


def supersede(mem: GraphMem, args: schemas.SupersedeArguments, defaults: Defaults) -> ToolOutput:
    """Replaces a belief with a new one."""
    new_id = mem.supersede(args.old_id, args.new, args.reason)
    return ToolOutput(
        f"belief {new_id} supersedes {args.old_id}",
        schemas.BeliefSuperseded(belief_id=new_id, superseded_id=args.old_id),
    )


def retire(mem: GraphMem, args: schemas.RetireArguments, defaults: Defaults) -> ToolOutput:
    """Retires a belief."""
    retired = mem.retire(args.belief_id, args.reason, args.actor)
    text = f"belief {args.belief_id} " + ("retired" if retired else "was already retired")
    return ToolOutput(text, schemas.BeliefRetired(belief_id=args.belief_id, retired=retired))


def correct(mem: GraphMem, args: schemas.CorrectArguments, defaults: Defaults) -> ToolOutput:
    """Corrects a belief durably."""
    project = args.project
    if project is None and args.kind is CorrectionKind.NOT_HERE:
        project = defaults.project
    result = mem.correct(
        args.belief_id, args.kind, project=project, statement=args.statement, actor=args.actor
    )
    text = f"belief {result.belief_id} corrected ({result.kind}); rejection {result.rejection_id}"
    if result.new_belief_id is not None:
        text += f"; now belief {result.new_belief_id}"
    return ToolOutput(text, result)


def forget(mem: GraphMem, args: schemas.ForgetArguments, defaults: Defaults) -> ToolOutput:
    """Deletes a belief's text everywhere."""
    mem.forget(args.belief_id, args.actor)
    return ToolOutput(
        f"belief {args.belief_id} forgotten: only a tombstone is left",
        schemas.BeliefForgotten(belief_id=args.belief_id),
    )


def consolidate(
    mem: GraphMem, args: schemas.ConsolidateArguments, defaults: Defaults
) -> ToolOutput:
    """Forms beliefs from an episode."""
    result = mem.consolidate(args.episode_id, policy=args.policy)
    return ToolOutput("\n".join(_consolidation_lines(result)), result)


def anchor_status(
    mem: GraphMem, args: schemas.AnchorStatusArguments, defaults: Defaults
) -> ToolOutput:
    """Checks a belief's anchor against a project's code graph."""
    status = mem.anchor_status(args.belief_id, args.project)
    text = f"belief {status.belief_id}: {status.state.value}"
    text += " (applies here)" if status.applies_here else " (does not apply here)"
    return ToolOutput(text, status)


def _code_root(given: str | None, defaults: Defaults) -> Path:
    allowed = defaults.code_root
    if allowed is None:
        raise InvalidInput("index_code is not offered by this server", field="root", rule="allowed")
    root = (allowed / given).resolve() if given is not None else allowed
    if not root.is_relative_to(allowed):
        raise InvalidInput(
            f"root: {given!r} is outside the tree this server may index ({allowed})",
            field="root",
            rule="inside_code_root",
        )
    return root


def index_code(mem: GraphMem, args: schemas.IndexCodeArguments, defaults: Defaults) -> ToolOutput:
    """Indexes a source tree inside the server's code root."""
    summary = mem.index_code(
        _code_root(args.root, defaults), _project(args.project, defaults), rebuild=args.rebuild
    )
    result = schemas.CodeIndexed(
        project=summary.project,
        root=summary.root,
        files=summary.files,
        symbols=summary.symbols,
        failed=summary.failed,
        writes=summary.writes,
        seconds=summary.seconds,
        anchor_changes=summary.anchor_changes,
    )
    files = summary.files
    lines = [
        f"indexed {summary.project} at {summary.root}: {files['parsed']} parsed, "
        f"{files['skipped']} unchanged, {files['removed']} removed, {files['failed']} failed"
    ]
    lines += [
        f"anchor {c.before} -> {c.after}: belief {c.belief_id} {c.statement}"
        for c in summary.anchor_changes
    ]
    return ToolOutput("\n".join(lines), result)


def overview(mem: GraphMem, args: schemas.OverviewArguments, defaults: Defaults) -> ToolOutput:
    """The principal's memory across all of its projects."""
    view = mem.overview()
    return ToolOutput("\n".join(overview_lines(view)), view)


def changes(mem: GraphMem, args: schemas.ChangesArguments, defaults: Defaults) -> ToolOutput:
    """What changed in memory since a time, a span or a seq."""
    found = mem.changes(args.since, project=args.project, kinds=args.kinds, limit=args.limit)
    text = "\n".join(change_line(change) for change in found) or "no changes"
    return ToolOutput(text, schemas.ChangesFound(changes=found))


def cite(mem: GraphMem, args: schemas.CiteArguments, defaults: Defaults) -> ToolOutput:
    """Records which items of a recall were used."""
    result = mem.cite(args.trace_id, args.item_ids)
    return ToolOutput(citation_line(result), result)


def hints(mem: GraphMem, args: schemas.HintsArguments, defaults: Defaults) -> ToolOutput:
    """The subjects recall kept missing on."""
    found = mem.hints(include_consumed=args.include_consumed, limit=args.limit)
    text = "\n".join(hint_line(hint) for hint in found) or "no formation hints"
    return ToolOutput(text, schemas.HintsFound(hints=found))


def sessions(mem: GraphMem, args: schemas.SessionsArguments, defaults: Defaults) -> ToolOutput:
    """The captured coding sessions."""
    found = mem.sessions(project=args.project)
    text = "\n".join(session_line(state) for state in found) or "no captured sessions"
    return ToolOutput(text, schemas.SessionsFound(sessions=found))


def session(mem: GraphMem, args: schemas.SessionArguments, defaults: Defaults) -> ToolOutput:
    """One captured session."""
    state = mem.session(args.session_id)
    return ToolOutput("\n".join(session_lines(state)), state)


@dataclass(frozen=True)
class Tool:
    """One MCP tool: its name, what it is for, its arguments and what it runs."""

    name: str
    description: str
    arguments: type[BaseModel]
    run: Callable[[GraphMem, Any, Defaults], ToolOutput]

    @property
    def output(self) -> type[BaseModel]:
        """The model of its structured content."""
        return schemas.RESULT_MODELS[self.name]


TOOLS: tuple[Tool, ...] = (
    Tool(
        "remember",
        "Record an episode: what happened in a session, task, run or message, with its "
        "observations, inferences, decisions, failed attempts and the code paths it "
        "touched. Returns its id; consolidate=true also forms beliefs from it now.",
        schemas.RememberArguments,
        remember,
    ),
    Tool(
        "believe",
        "State a belief: a typed statement (fact, preference, lesson, decision, "
        "dead_end, pattern, gotcha) with confidence, optional subject, code anchor and "
        "evidence episodes. Returns its id.",
        schemas.BelieveArguments,
        believe,
    ),
    Tool(
        "recall",
        "Recall the beliefs that answer a question (what is true), best first, as a "
        "byte-stable text block with ids to cite, plus the trace id and conflicts.",
        schemas.RecallArguments,
        recall,
    ),
    Tool(
        "search_episodes",
        "Find the episodes that answer a question (what happened), best first.",
        schemas.SearchEpisodesArguments,
        search_episodes,
    ),
    Tool(
        "snapshot",
        "What to know at the start of a session in a project: the live beliefs that "
        "apply there, durable preferences first.",
        schemas.SnapshotArguments,
        snapshot,
    ),
    Tool(
        "supersede",
        "Replace a live belief with a new statement (or changed fields), recording why; "
        "the old one leaves live recall and stays in its history.",
        schemas.SupersedeArguments,
        supersede,
    ),
    Tool(
        "retire",
        "Retire a belief that is no longer true: it leaves live recall, history stays.",
        schemas.RetireArguments,
        retire,
    ),
    Tool(
        "correct",
        "Correct a belief durably: not_true retires it, changed supersedes it with "
        "statement, not_here keeps it out of a project, unspecified down-weights it. "
        "The correction also holds against future formation.",
        schemas.CorrectArguments,
        correct,
    ),
    Tool(
        "forget",
        "Delete a belief's text everywhere (belief, logs, episode items), keeping only a "
        "tombstone so it is never formed again.",
        schemas.ForgetArguments,
        forget,
    ),
    Tool(
        "consolidate",
        "Form beliefs from one episode's structured parts through the formation gates "
        "(trust, tombstones, novelty, cap, resolve). Running it again changes nothing.",
        schemas.ConsolidateArguments,
        consolidate,
    ),
    Tool(
        "anchor_status",
        "Check whether a belief's code anchor still matches the code: verified, drifted, "
        "vanished (with candidates), unverifiable or unanchored.",
        schemas.AnchorStatusArguments,
        anchor_status,
    ),
    Tool(
        "overview",
        "The principal's memory across all of its projects: per project its episodes, "
        "live beliefs by type and state, promoted beliefs, open conflicts, drifted and "
        "vanished anchors and last activity; the principal-scope beliefs; the subjects "
        "that recur across projects.",
        schemas.OverviewArguments,
        overview,
    ),
    Tool(
        "changes",
        "What changed in memory, oldest first: beliefs learned, reinforced, activated, "
        "superseded, retired, corrected, forgotten (digest only), promoted, conflicted, "
        "anchors that an index run changed, episodes remembered; each with statement, "
        "project, actor and ISO 8601 time. since: 7d, 12h, 2026-11-01 or a seq.",
        schemas.ChangesArguments,
        changes,
    ),
    Tool(
        "cite",
        "Say which items of a recall you actually used: pass the result's trace_id and "
        "those item ids. It is recorded on the trace and keeps the beliefs from decaying "
        "(never raises their confidence). Call it after using recalled beliefs.",
        schemas.CiteArguments,
        cite,
    ),
    Tool(
        "hints",
        "Subjects recall kept missing on (by default 3 misses within 7 days queue one), "
        "waiting for formation to look for beliefs on them; consolidation consumes them.",
        schemas.HintsArguments,
        hints,
    ),
    Tool(
        "sessions",
        "The coding sessions captured through the agent host's hooks, newest first: "
        "state, event counts and how many beliefs each formed.",
        schemas.SessionsArguments,
        sessions,
    ),
    Tool(
        "session",
        "One captured session: its signals with their evidence, its episode, the "
        "beliefs it formed and the candidates its gates rejected.",
        schemas.SessionArguments,
        session,
    ),
    Tool(
        "index_code",
        "Build or update a project's code graph from its source tree (the server's work "
        "tree by default): files and symbols that beliefs anchor to.",
        schemas.IndexCodeArguments,
        index_code,
    ),
)
"""Every tool the server offers (``index_code`` only where it has a code root)."""
