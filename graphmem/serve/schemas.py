"""The MCP tools' arguments and structured results, as pydantic models.

Every argument model is built from the client's own models (:mod:`graphmem.models`),
so a tool validates exactly as the client method it calls, and its JSON schema is what
``tools/list`` advertises. Argument names are the client's parameter names. Where the
client requires a project, a tool may leave it out: the server's default project
(``graphmem mcp --project``) fills it in.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints

from graphmem.limits import CITED_ID_PATTERN
from graphmem.models import (
    MAX_CITED_ITEMS,
    AnchorChange,
    AnchorStatus,
    Arm,
    Authority,
    BeliefChanges,
    Change,
    ChangeKind,
    CitationResult,
    CodePath,
    Conflict,
    ConsolidationResult,
    CorrectionKind,
    CorrectionResult,
    EpisodeSearchResult,
    FormationHint,
    FormationPolicy,
    Id,
    Name,
    NewBelief,
    NewEpisode,
    Overview,
    QueryText,
    Reason,
    RecallQuery,
    RecallResult,
    Sensitivity,
    SessionState,
    SnapshotProfile,
    Statement,
)

StrictBool = Annotated[bool, Field(strict=True)]
Limit = Annotated[int, Field(strict=True, ge=1, le=200)]


class _Arguments(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RememberArguments(NewEpisode):
    """``remember``: one episode (a :class:`NewEpisode`), optionally consolidated now."""

    project: Name | None = None  # type: ignore[assignment]
    """The project it happened in; the server's default project when left out."""
    consolidate: StrictBool = False
    """Also form beliefs from its structured parts now."""


class BelieveArguments(NewBelief):
    """``believe``: one belief (a :class:`NewBelief`)."""

    project: Name | None = None  # type: ignore[assignment]
    """The project it was learned in; the server's default project when left out."""


class RecallArguments(RecallQuery):
    """``recall``: beliefs that answer a query (a :class:`RecallQuery`)."""

    # pydantic copies defaults per instance: a list default is safe here.
    arms: Annotated[list[Arm], Field(min_length=1, max_length=4)] = [  # noqa: RUF012
        Arm.LEXICAL,
        Arm.SEMANTIC,
        Arm.GRAPH,
        Arm.STRUCTURED,
    ]
    all_projects: StrictBool = False
    """Weigh every project alike instead of the given (or default) project."""
    ceiling: Sensitivity | None = None  # type: ignore[assignment]
    """The most sensitive memory to show; the server's ceiling when left out."""


class SearchEpisodesArguments(_Arguments):
    """``search_episodes``: episodes that answer a query."""

    query: QueryText
    project: Name | None = None
    """Only this project's episodes; the server's default project when left out."""
    all_projects: StrictBool = False
    """Search every project's episodes."""
    as_of: AwareDatetime | None = None
    """Only episodes that had happened by then."""
    k: Limit = 10
    arms: Annotated[list[Arm], Field(min_length=1, max_length=4)] = [
        Arm.LEXICAL,
        Arm.SEMANTIC,
        Arm.GRAPH,
        Arm.TIME,
    ]
    ceiling: Sensitivity | None = None
    """The most sensitive memory to show; the server's ceiling when left out."""


class SnapshotArguments(_Arguments):
    """``snapshot``: what to know at the start of a session in a project."""

    project: Name | None = None
    profile: SnapshotProfile = SnapshotProfile.INTERACTIVE
    ceiling: Sensitivity | None = None
    """The most sensitive memory to show; the server's ceiling when left out."""


class SupersedeArguments(_Arguments):
    """``supersede``: replace a live belief, recording why."""

    old_id: Id
    new: Statement | BeliefChanges
    """The new statement, or the fields that change (:class:`BeliefChanges`)."""
    reason: Reason


class RetireArguments(_Arguments):
    """``retire``: a belief that is no longer true leaves live recall."""

    belief_id: Id
    reason: Reason
    actor: Authority = Authority.AGENT


class CorrectArguments(_Arguments):
    """``correct``: a durable correction of a belief, matched by content."""

    belief_id: Id
    kind: CorrectionKind = CorrectionKind.UNSPECIFIED
    project: Name | None = None
    """For ``not_here``: the project it does not apply to (default: the server's)."""
    statement: Statement | None = None
    """For ``changed``: what is true instead."""
    actor: Authority = Authority.USER


class ForgetArguments(_Arguments):
    """``forget``: delete a belief's text everywhere, keeping only a tombstone."""

    belief_id: Id
    actor: Authority = Authority.USER


class SessionsArguments(_Arguments):
    """``sessions``: the captured coding sessions, newest first."""

    project: Name | None = None
    """Only this project's sessions (default: all of the principal's)."""


class SessionArguments(_Arguments):
    """``session``: one captured session, with its signals and what it formed."""

    session_id: Annotated[str, StringConstraints(strict=True, min_length=1, max_length=200)]
    """The agent host's session id."""


class ConsolidateArguments(_Arguments):
    """``consolidate``: form beliefs from one episode's structured parts."""

    episode_id: Id
    policy: FormationPolicy | None = None


class AnchorStatusArguments(_Arguments):
    """``anchor_status``: whether a belief's anchor still matches the code."""

    belief_id: Id
    project: Name | None = None
    """The project to check against; the belief's own when left out."""


class IndexCodeArguments(_Arguments):
    """``index_code``: build or update a project's derived code graph."""

    root: CodePath | None = None
    """The directory to index; the server's work tree when left out."""
    project: Name | None = None
    rebuild: StrictBool = False


class OverviewArguments(_Arguments):
    """``overview``: the principal's memory across all of its projects."""


class ChangesArguments(_Arguments):
    """``changes``: what changed in memory, oldest first."""

    since: (
        Annotated[str, Field(strict=True, min_length=1, max_length=40)]
        | Annotated[int, Field(strict=True, ge=0)]
    ) = "7d"
    """A span back from now (``30m``, ``12h``, ``7d``, ``2w``), an ISO 8601 date or time,
    or a seq (changes after it)."""
    project: Name | None = None
    """Only changes about this project; every project when left out."""
    kinds: list[ChangeKind] | None = None
    """Only these kinds; all when left out."""
    limit: Limit = 100


CitedId = Annotated[str, StringConstraints(strict=True, pattern=CITED_ID_PATTERN)]
"""An id's last 8 characters, as a hook's injection shows its trace and items."""


class CiteArguments(_Arguments):
    """``cite``: which items of a recall the agent used."""

    trace_id: CitedId
    """The ``trace_id`` of the recall (or search, or snapshot) the items came from, or
    the short form a hook's injection shows (its last 8 characters)."""
    item_ids: Annotated[list[CitedId], Field(min_length=1, max_length=MAX_CITED_ITEMS)]
    """The ids of the items it returned that were used (whole, or as an injection shows
    them)."""


class HintsArguments(_Arguments):
    """``hints``: the subjects recall kept missing on, queued for formation."""

    include_consumed: StrictBool = False
    """Also the consumed hints that have not expired."""
    limit: Limit = 100


# --- structured results -------------------------------------------------------------


class _Result(BaseModel):
    model_config = ConfigDict(frozen=True)


class EpisodeRecorded(_Result):
    """What ``remember`` did."""

    episode_id: str
    consolidation: ConsolidationResult | None = None


class BeliefStated(_Result):
    """What ``believe`` did."""

    belief_id: str


class BeliefSuperseded(_Result):
    """What ``supersede`` did."""

    belief_id: str
    """The new belief."""
    superseded_id: str


class BeliefRetired(_Result):
    """What ``retire`` did."""

    belief_id: str
    retired: bool
    """False when it was already retired."""


class BeliefForgotten(_Result):
    """What ``forget`` did."""

    belief_id: str
    forgotten: bool = True


class Recalled(_Result):
    """What ``recall``, ``search_episodes`` or ``snapshot`` found, by id.

    The rendered text carries each item's statement, type, confidence band, origin and
    anchor state; this carries what a program needs to cite and audit it. It is kept
    small on purpose: a host validates it against the tool's output schema on every
    call, and per-item objects cost about a millisecond more per recall to validate.
    """

    query: str
    project: str | None
    ids: list[str]
    """The items in rendered order (beliefs, or episodes for ``search_episodes``)."""
    conflicts: list[Conflict] = []
    """Pairs of recalled beliefs that contradict each other (unresolved)."""
    trace_id: str
    """The recall trace (``graphmem trace ID``)."""
    rendered_sha256: str
    dropped: int
    blocked: int
    withheld: int = 0
    """Candidates above the ceiling: never shown."""
    flagged: int = 0
    """Items shown as ``[BLOCKED: reason]`` (the injection scan)."""

    @classmethod
    def of(cls, result: RecallResult | EpisodeSearchResult) -> Recalled:
        """The structured view of a client result."""
        conflicts = result.conflicts if isinstance(result, RecallResult) else []
        return cls(
            query=result.query,
            project=result.project,
            ids=[item.id for item in result.items],
            conflicts=conflicts,
            trace_id=result.trace_id,
            rendered_sha256=result.rendered_sha256,
            dropped=result.dropped,
            blocked=result.blocked,
            withheld=result.withheld,
            flagged=result.flagged,
        )


class CodeIndexed(_Result):
    """What ``index_code`` did (see :class:`graphmem.IndexSummary`)."""

    project: str
    root: str
    files: dict[str, int]
    symbols: dict[str, int]
    failed: list[dict[str, str]]
    """Files that could not be indexed, with their reasons."""
    writes: int
    seconds: float
    anchor_changes: list[AnchorChange] = []
    """Beliefs learned in the project whose anchor state this run changed."""


class ChangesFound(_Result):
    """What ``changes`` found, oldest first."""

    changes: list[Change]


class SessionsFound(_Result):
    """What ``sessions`` found, newest first."""

    sessions: list[SessionState]


class HintsFound(_Result):
    """What ``hints`` found: open ones first, most missed first."""

    hints: list[FormationHint]


RESULT_MODELS: dict[str, type[BaseModel]] = {
    "remember": EpisodeRecorded,
    "believe": BeliefStated,
    "recall": Recalled,
    "search_episodes": Recalled,
    "snapshot": Recalled,
    "supersede": BeliefSuperseded,
    "retire": BeliefRetired,
    "correct": CorrectionResult,
    "forget": BeliefForgotten,
    "consolidate": ConsolidationResult,
    "anchor_status": AnchorStatus,
    "index_code": CodeIndexed,
    "overview": Overview,
    "changes": ChangesFound,
    "cite": CitationResult,
    "hints": HintsFound,
    "sessions": SessionsFound,
    "session": SessionState,
}
"""The model of each tool's structured content (its ``outputSchema``)."""
