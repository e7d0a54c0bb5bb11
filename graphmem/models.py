"""The domain model: enums, what a writer submits, and what graphmem returns.

Writers submit :class:`NewEpisode` and :class:`NewBelief`; graphmem returns the stored
:class:`Episode` and :class:`Belief`. Every limit lives here, so a bad value is refused
before anything reaches the database. This module imports nothing of graphmem.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)

# --- limits -------------------------------------------------------------------------

MAX_STATEMENT_CHARS = 4_000
MAX_SUBJECT_CHARS = 256
MAX_TITLE_CHARS = 500
MAX_EPISODE_TEXT_CHARS = 100_000
MAX_ITEM_CHARS = 4_000
MAX_ITEMS = 200
MAX_PATH_CHARS = 1_024
MAX_REASON_CHARS = 1_000
MAX_IDEMPOTENCY_KEY_CHARS = 200
MAX_BATCH_ROWS = 10_000
"""The most rows one batch write, listing or log page holds."""
MAX_SEQ = 2**63 - 1
"""The largest seq: the largest integer Neo4j stores."""

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$"
ID_PATTERN = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
COMMIT_PATTERN = r"^[0-9a-f]{7,64}$"
ANCHOR_KEY_PATTERN = r"^[a-z0-9_+-]+:[^:]+(:[^:]+)*::[^#]+#[a-z]+(~[0-9]+)?$"


def _clean_text(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain NUL bytes")
    if not value.strip():
        raise ValueError("must not be blank")
    return value


_CLEAN = AfterValidator(_clean_text)


def _limit(max_chars: int) -> StringConstraints:
    return StringConstraints(strict=True, min_length=1, max_length=max_chars)


Statement = Annotated[str, _limit(MAX_STATEMENT_CHARS), _CLEAN]
Subject = Annotated[str, _limit(MAX_SUBJECT_CHARS), _CLEAN]
Title = Annotated[str, _limit(MAX_TITLE_CHARS), _CLEAN]
EpisodeText = Annotated[str, _limit(MAX_EPISODE_TEXT_CHARS), _CLEAN]
Item = Annotated[str, _limit(MAX_ITEM_CHARS), _CLEAN]
CodePath = Annotated[str, _limit(MAX_PATH_CHARS), _CLEAN]
Reason = Annotated[str, _limit(MAX_REASON_CHARS), _CLEAN]
IdempotencyKey = Annotated[str, _limit(MAX_IDEMPOTENCY_KEY_CHARS), _CLEAN]
Name = Annotated[str, StringConstraints(strict=True, pattern=NAME_PATTERN)]
Id = Annotated[str, StringConstraints(strict=True, pattern=ID_PATTERN)]
CommitId = Annotated[str, StringConstraints(strict=True, pattern=COMMIT_PATTERN)]
Confidence = Annotated[float, Field(strict=True, ge=0.0, le=1.0, allow_inf_nan=False)]
Items = Annotated[list[Item], Field(max_length=MAX_ITEMS)]


# --- enums --------------------------------------------------------------------------


class EpisodeKind(StrEnum):
    """What an episode records."""

    SESSION = "session"
    TASK = "task"
    RUN = "run"
    MESSAGE = "message"


class Outcome(StrEnum):
    """How an episode ended."""

    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"
    PARTIAL = "partial"
    NONE = "none"


class Trust(StrEnum):
    """Whether an episode's content may form beliefs directly (design rule 5)."""

    TRUSTED = "trusted"
    UNTRUSTED = "untrusted"


class BeliefType(StrEnum):
    """What kind of thing a belief states."""

    FACT = "fact"
    PREFERENCE = "preference"
    LESSON = "lesson"
    DECISION = "decision"
    DEAD_END = "dead_end"
    PATTERN = "pattern"
    GOTCHA = "gotcha"


class Portability(StrEnum):
    """How far a belief travels beyond the project it was learned in."""

    PORTABLE = "portable"
    CONTEXTUAL = "contextual"
    LOCAL = "local"


class Authority(StrEnum):
    """Who stated a belief; user > agent > tool > external."""

    USER = "user"
    AGENT = "agent"
    TOOL = "tool"
    EXTERNAL = "external"


class BeliefState(StrEnum):
    """Lifecycle state of a belief."""

    PROVISIONAL = "provisional"
    ACTIVE = "active"
    RETIRED = "retired"


class Scope(StrEnum):
    """Where a belief applies: its project, or everywhere for the principal."""

    PROJECT = "project"
    PRINCIPAL = "principal"


class EvidenceRole(StrEnum):
    """Why an episode supports a belief (the role on ``DERIVED_FROM``)."""

    OBSERVATION = "observation"
    INFERENCE = "inference"
    DECISION = "decision"
    FAILED_ATTEMPT = "failed_attempt"
    EXPLICIT = "explicit"


AUTHORITY_RANK: dict[Authority, int] = {
    Authority.EXTERNAL: 0,
    Authority.TOOL: 1,
    Authority.AGENT: 2,
    Authority.USER: 3,
}
"""user > agent > tool > external: who may overrule whom when a slot is contested."""

PORTABILITY_RANK: dict[Portability, int] = {
    Portability.LOCAL: 0,
    Portability.CONTEXTUAL: 1,
    Portability.PORTABLE: 2,
}

DEFAULT_PORTABILITY: dict[BeliefType, Portability] = {
    BeliefType.PREFERENCE: Portability.PORTABLE,
    BeliefType.LESSON: Portability.PORTABLE,
    BeliefType.PATTERN: Portability.PORTABLE,
    BeliefType.GOTCHA: Portability.PORTABLE,
    BeliefType.FACT: Portability.CONTEXTUAL,
    BeliefType.DEAD_END: Portability.CONTEXTUAL,
    BeliefType.DECISION: Portability.LOCAL,
}
"""Per-type ceiling: a writer may lower a belief's portability, never raise it."""

DEFAULT_CONFIDENCE = 0.5


class Sensitivity(StrEnum):
    """How sensitive a node's text is (design §11); ``rank`` orders the levels.

    ``public < internal < confidential < secret``. Every read surface has a ceiling and
    shows nothing above it (``graphmem.trust.sensitivity``).
    """

    PUBLIC = "public"
    INTERNAL = "internal"
    CONFIDENTIAL = "confidential"
    SECRET = "secret"

    @property
    def rank(self) -> int:
        """The level's place in the order: 0 for public up to 3 for secret."""
        return list(Sensitivity).index(self)


DEFAULT_SENSITIVITY = Sensitivity.INTERNAL
"""The level of a node whose writer declares none."""


# --- what writers submit ------------------------------------------------------------


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NewEpisode(_Input):
    """An episode as a writer submits it: what happened, where, and what came of it."""

    project: Name
    kind: EpisodeKind = EpisodeKind.SESSION
    title: Title
    text: EpisodeText | None = None
    outcome: Outcome = Outcome.NONE
    trust: Trust = Trust.TRUSTED
    observations: Items = []
    inferences: Items = []
    decisions: Items = []
    failed_attempts: Items = []
    unresolved: Items = []
    paths: Annotated[list[CodePath], Field(max_length=MAX_ITEMS)] = []
    commits: Annotated[list[CommitId], Field(max_length=MAX_ITEMS)] = []
    parent: Id | None = None
    started_at: AwareDatetime | None = None
    ended_at: AwareDatetime | None = None
    sensitivity: Sensitivity = DEFAULT_SENSITIVITY
    """At least this; raised to secret when a text holds a secret (design §11)."""
    idempotency_key: IdempotencyKey | None = None

    @field_validator("ended_at")
    @classmethod
    def _ends_after_start(cls, value: datetime | None, info: ValidationInfo) -> datetime | None:
        started = info.data.get("started_at")
        if value is not None and started is not None and value < started:
            raise ValueError("must not be before started_at")
        return value


class AnchorState(StrEnum):
    """Whether a belief's anchor still matches the code (design §4), read-time only."""

    UNANCHORED = "unanchored"
    VERIFIED = "verified"
    VANISHED = "vanished"
    UNVERIFIABLE = "unverifiable"
    DRIFTED = "drifted"


class AnchorRef(_Input):
    """The code a belief is about: a symbol key, or a file path and a symbol's name.

    A plain string is taken as a key (``python:billing/invoice.py::Invoice.total#method``).
    ``symbol`` may be a name (``total``) or a qualified name (``Invoice.total``).
    """

    key: (
        Annotated[
            str,
            StringConstraints(strict=True, max_length=MAX_PATH_CHARS, pattern=ANCHOR_KEY_PATTERN),
        ]
        | None
    ) = None
    path: CodePath | None = None
    symbol: Subject | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_plain_key(cls, value: Any) -> Any:
        return {"key": value} if isinstance(value, str) else value

    @model_validator(mode="after")
    def _key_or_path_and_symbol(self) -> AnchorRef:
        if (self.key is None) == (self.path is None or self.symbol is None):
            raise ValueError("give either key, or both path and symbol")
        if self.key is not None and (self.path is not None or self.symbol is not None):
            raise ValueError("give either key, or both path and symbol")
        return self


class Evidence(_Input):
    """One episode that supports a belief, and in what role.

    A plain episode id is accepted wherever evidence is expected (role ``explicit``).
    """

    episode_id: Id
    role: EvidenceRole = EvidenceRole.EXPLICIT

    @model_validator(mode="before")
    @classmethod
    def _from_plain_id(cls, value: Any) -> Any:
        return {"episode_id": value} if isinstance(value, str) else value


def _unique_evidence(evidence: list[Evidence]) -> list[Evidence]:
    """One DERIVED_FROM per episode: an episode cited twice keeps its first role."""
    seen: set[str] = set()
    unique = []
    for item in evidence:
        if item.episode_id not in seen:
            seen.add(item.episode_id)
            unique.append(item)
    return unique


class NewBelief(_Input):
    """A belief as a writer states it.

    ``portability`` defaults to the type's ceiling (:data:`DEFAULT_PORTABILITY`); a
    writer may lower it but never raise it. ``confidence`` defaults to 0.5.
    """

    statement: Statement
    project: Name
    type: BeliefType
    subject: Subject | None = None
    confidence: Confidence = DEFAULT_CONFIDENCE
    portability: Portability | None = None
    authority: Authority = Authority.AGENT
    state: BeliefState = BeliefState.ACTIVE
    valid_from: AwareDatetime | None = None
    anchor: AnchorRef | None = None
    anchor_unverifiable: Annotated[bool, Field(strict=True)] = False
    """The writer knows the anchor cannot be checked (e.g. unsupported language): a key is
    stored without a hash instead of an unknown symbol being an error."""
    evidence: Annotated[list[Evidence], Field(max_length=MAX_ITEMS)] = []
    sensitivity: Sensitivity = DEFAULT_SENSITIVITY
    """At least this; raised to secret when its text holds a secret, and never below the
    level of an episode it was formed from (design §11)."""
    idempotency_key: IdempotencyKey | None = None

    @field_validator("portability")
    @classmethod
    def _not_above_type_ceiling(
        cls, value: Portability | None, info: ValidationInfo
    ) -> Portability | None:
        belief_type = info.data.get("type")
        if value is None or belief_type is None:
            return value
        ceiling = DEFAULT_PORTABILITY[belief_type]
        if PORTABILITY_RANK[value] > PORTABILITY_RANK[ceiling]:
            raise ValueError(
                f"a {belief_type.value} belief may be at most {ceiling.value}, not {value.value}"
            )
        return value

    @field_validator("state")
    @classmethod
    def _not_born_retired(cls, value: BeliefState) -> BeliefState:
        if value is BeliefState.RETIRED:
            raise ValueError("a new belief cannot be retired")
        return value

    @field_validator("evidence")
    @classmethod
    def _one_link_per_episode(cls, value: list[Evidence]) -> list[Evidence]:
        return _unique_evidence(value)

    @field_validator("anchor_unverifiable")
    @classmethod
    def _unverifiable_needs_key(cls, value: bool, info: ValidationInfo) -> bool:
        anchor = info.data.get("anchor")
        if value and (anchor is None or anchor.key is None):
            raise ValueError("an unverifiable anchor must be given as a key")
        return value

    @property
    def effective_portability(self) -> Portability:
        """The portability stored: the writer's, or the type's default."""
        return self.portability or DEFAULT_PORTABILITY[self.type]


class BeliefChanges(_Input):
    """Optional overrides for the belief that supersedes another (unset = keep the old)."""

    statement: Statement
    project: Name | None = None
    type: BeliefType | None = None
    subject: Subject | None = None
    confidence: Confidence | None = None
    portability: Portability | None = None
    authority: Authority | None = None
    valid_from: AwareDatetime | None = None
    anchor: AnchorRef | None = None
    """A new anchor; by default the successor keeps the old key and hash."""
    anchor_unverifiable: Annotated[bool, Field(strict=True)] = False
    evidence: Annotated[list[Evidence], Field(max_length=MAX_ITEMS)] = []
    idempotency_key: IdempotencyKey | None = None


class ChangeReason(_Input):
    """Why a belief was superseded or retired, and who says so."""

    reason: Reason
    actor: Authority = Authority.AGENT


class ListFilters(_Input):
    """Filters of :meth:`GraphMem.list_beliefs`."""

    project: Name | None = None
    type: BeliefType | None = None
    state: BeliefState | None = None
    scope: Scope | None = None
    include_superseded: Annotated[bool, Field(strict=True)] = False
    anchor_state: AnchorState | None = None
    """Only beliefs whose anchor is in this state, checked against their own project."""
    promoted: Annotated[bool, Field(strict=True)] = False
    """Only beliefs promoted to principal scope."""
    conflicted: Annotated[bool, Field(strict=True)] = False
    """Only beliefs in an open conflict (CONFLICTS_WITH a live belief)."""
    limit: Annotated[int, Field(strict=True, ge=1, le=MAX_BATCH_ROWS)] = 100


# --- what graphmem returns ----------------------------------------------------------


class _Stored(BaseModel):
    model_config = ConfigDict(frozen=True)


class Episode(_Stored):
    """A stored episode."""

    id: str
    principal: str
    project: str
    kind: EpisodeKind
    title: str
    text: str | None = None
    outcome: Outcome
    trust: Trust
    observations: list[str]
    inferences: list[str]
    decisions: list[str]
    failed_attempts: list[str]
    unresolved: list[str]
    paths: list[str]
    commits: list[str]
    parent: str | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    recorded_at: datetime
    seq: int
    idempotency_key: str | None = None
    consolidated_at: datetime | None = None
    """When formation ran over this episode (None: not yet)."""
    sensitivity: Sensitivity = DEFAULT_SENSITIVITY


class Belief(_Stored):
    """A stored belief, with its provenance and supersession links."""

    id: str
    principal: str
    project: str
    statement: str
    subject: str | None = None
    type: BeliefType
    portability: Portability
    confidence: float
    authority: Authority
    state: BeliefState
    scope: Scope
    origins: list[str]
    valid_from: datetime
    valid_to: datetime | None = None
    recorded_at: datetime
    superseded_at: datetime | None = None
    superseded_by: str | None = None
    supersedes: str | None = None
    retired_at: datetime | None = None
    retired_reason: str | None = None
    anchor_key: str | None = None
    anchor_hash: str | None = None
    seq: int
    idempotency_key: str | None = None
    evidence: list[Evidence]
    sensitivity: Sensitivity = DEFAULT_SENSITIVITY

    @property
    def is_live(self) -> bool:
        """True while the belief is neither retired nor superseded."""
        return self.state is not BeliefState.RETIRED and self.superseded_at is None


class HistoryEntry(_Stored):
    """One link in a supersession chain, oldest first."""

    belief: Belief
    reason: str | None = None
    """Why the *next* belief superseded this one (None for the newest)."""


class AnchorCandidate(_Stored):
    """Where a vanished anchor's code may have gone."""

    key: str
    qualname: str
    reason: str
    """``same content`` (moved), ``same name`` (moved) or ``similar name`` (renamed)."""


class AnchorStatus(_Stored):
    """A belief's anchor checked against one project's current code graph."""

    belief_id: str
    project: str
    anchor_key: str | None
    state: AnchorState
    anchor_weight: float
    applies_here: bool
    reason: str | None = None
    """Why the state is ``unverifiable``."""
    candidates: list[AnchorCandidate] = []


class Arm(StrEnum):
    """A recall arm (design §5.2)."""

    LEXICAL = "lexical"
    SEMANTIC = "semantic"
    GRAPH = "graph"
    STRUCTURED = "structured"
    TIME = "time"
    """Episodes only: BM25 among the episodes dated in the time the query names."""


class Decay(StrEnum):
    """How a belief's weight falls with the writes since it was stated (design §5.4)."""

    NONE = "none"
    LINEAR = "linear"
    EXPONENTIAL = "exponential"


class RecallItem(_Stored):
    """One recalled belief, with what the reader needs to weigh and cite it."""

    id: str
    statement: str
    type: BeliefType
    confidence_band: str
    project: str
    origins: list[str]
    scope: Scope
    anchor_state: AnchorState
    applies_here: bool
    evidence: list[str]
    """Provenance: the ids of the episodes it was derived from."""
    arm_ranks: dict[str, int]
    score: float
    flagged: str | None = None
    """Why the injection scan replaced ``statement`` with ``[BLOCKED: ...]`` (None: shown).
    The stored statement is unchanged."""


class Conflict(_Stored):
    """Two recalled beliefs linked CONFLICTS_WITH (an unresolved contradiction)."""

    a: str
    b: str


class _RenderedResult(_Stored):
    """What every recall surface returns besides its items."""

    query: str
    project: str | None
    dropped: int
    """Fused candidates beyond k."""
    blocked: int
    """Candidates removed by the hard filters (superseded, retired, other scope...)."""
    withheld: int = 0
    """The arms' hits above the call's sensitivity ceiling: filtered in the candidates
    query before fusion and ranking, never shown (design §11)."""
    flagged: int = 0
    """Items shown as ``[BLOCKED: reason]``: the injection scan flagged their text."""
    rendered: str
    rendered_sha256: str
    trace_id: str

    def render(self) -> str:
        """The deterministic text block for a prompt."""
        return self.rendered


class RecallResult(_RenderedResult):
    """What :meth:`GraphMem.recall` returns; ``rendered`` is the byte-stable text."""

    items: list[RecallItem]
    conflicts: list[Conflict]


class EpisodeHit(_Stored):
    """One episode found by :meth:`GraphMem.search_episodes`."""

    id: str
    title: str
    text: str | None
    project: str
    kind: EpisodeKind
    outcome: Outcome
    arm_ranks: dict[str, int]
    score: float
    flagged: str | None = None
    """Why the injection scan replaced ``title`` and ``text`` with ``[BLOCKED: ...]``."""


class EpisodeSearchResult(_RenderedResult):
    """What :meth:`GraphMem.search_episodes` returns."""

    items: list[EpisodeHit]


MAX_QUERY_CHARS = 20_000
QueryText = Annotated[str, _limit(MAX_QUERY_CHARS), _CLEAN]


class SnapshotProfile(StrEnum):
    """How much a session-start snapshot holds (design §5.8)."""

    INTERACTIVE = "interactive"
    LONG = "long"
    CHILD = "child"


class RecallQuery(_Input):
    """What a caller asks :meth:`GraphMem.recall` or :meth:`GraphMem.search_episodes`."""

    query: QueryText
    project: Name | None = None
    types: Annotated[list[BeliefType], Field(max_length=7)] | None = None
    as_of: AwareDatetime | None = None
    k: Annotated[int, Field(strict=True, ge=1, le=200)] = 10
    arms: Annotated[list[Arm], Field(min_length=1, max_length=5)] = [Arm.LEXICAL, Arm.SEMANTIC]
    paths: Annotated[list[CodePath], Field(max_length=MAX_ITEMS)] | None = None
    """Structured arm: beliefs anchored in these files."""
    symbols: Annotated[list[CodePath], Field(max_length=MAX_ITEMS)] | None = None
    """Structured arm: beliefs anchored to these symbol keys (or names in ``project``)."""
    subjects: Annotated[list[Subject], Field(max_length=MAX_ITEMS)] | None = None
    """Structured arm: beliefs about exactly these subjects."""
    decay: Decay = Decay.NONE
    """Read-time decay by generations (seqs) since the belief was stated."""
    ceiling: Sensitivity = Sensitivity.CONFIDENTIAL
    """The most sensitive level the call may see; secret memory needs it said."""


DEFAULT_CAPS: dict[EpisodeKind, int] = {
    EpisodeKind.SESSION: 20,
    EpisodeKind.TASK: 10,
    EpisodeKind.RUN: 10,
    EpisodeKind.MESSAGE: 3,
}
"""New beliefs one episode of each kind may form (0 is a valid cap)."""


class FormationPolicy(_Input):
    """The gates of formation (design §6) and their settings.

    Each gate can be switched off, which the tests use to show that it does something.
    """

    trust_gate: bool = True
    """Untrusted episodes form nothing directly (rule 5)."""
    rejection_gate: bool = True
    """Tombstoned content is never re-formed (rule 7), and every correction is
    replayed on matching candidates (rule 6)."""
    novelty_gate: bool = True
    """A near-duplicate of a live belief of the same type reinforces it instead."""
    cap_gate: bool = True
    """At most ``caps[kind]`` new beliefs per episode."""
    resolve_gate: bool = True
    """A (subject, type) slot holds one live belief: supersede or flag a conflict."""
    novelty_threshold: Annotated[float, Field(ge=0.0, le=1.0)] = 0.85
    """Cosine at or above which a candidate may repeat a belief (chosen on labelled
    pairs, see ``graphmem/formation/novelty.py``; the design said 0.88)."""
    caps: dict[EpisodeKind, Annotated[int, Field(ge=0)]] = DEFAULT_CAPS
    """New beliefs per episode kind; kinds not given keep their default."""
    authority: Authority = Authority.AGENT
    """Who the formed beliefs are stated by."""
    version: Annotated[str, StringConstraints(min_length=1, max_length=64)] = "formation-v1"

    @field_validator("caps")
    @classmethod
    def _default_caps(cls, value: dict[EpisodeKind, int]) -> dict[EpisodeKind, int]:
        return {**DEFAULT_CAPS, **value}


class RejectedCandidate(_Stored):
    """A candidate a gate held back, and why."""

    statement: str
    gate: Literal["trust", "rejection", "novelty", "cap"]
    similar_to: str | None = None
    """The live belief it duplicated (novelty)."""
    similarity: float | None = None


class Supersession(_Stored):
    """A slot holder replaced by a newly formed belief."""

    old: str
    new: str


class ConsolidationResult(_Stored):
    """What formation did with one episode."""

    episode_id: str
    already_consolidated: bool = False
    created: list[str] = []
    reinforced: list[str] = []
    activated: list[str] = []
    promoted: list[str] = []
    superseded: list[Supersession] = []
    conflicts: list[Conflict] = []
    rejected: list[RejectedCandidate] = []


class CorrectionKind(StrEnum):
    """How a user corrects a belief (design §6)."""

    NOT_TRUE = "not_true"
    """Retire it."""
    CHANGED = "changed"
    """Supersede it with the corrected statement, at user authority."""
    NOT_HERE = "not_here"
    """Lower its portability and keep it out of one project."""
    UNSPECIFIED = "unspecified"
    """Flag and down-weight it; never retire it."""


class Correction(_Input):
    """A correction of one belief, as a user gives it."""

    kind: CorrectionKind = CorrectionKind.UNSPECIFIED
    project: Name | None = None
    """For ``not_here``: the project it does not apply to."""
    statement: Statement | None = None
    """For ``changed``: what is true instead."""
    actor: Authority = Authority.USER

    def missing_field(self) -> str | None:
        """The field this kind needs and lacks, else None.

        ``changed`` needs ``statement``; ``not_here`` needs ``project``.
        """
        if self.kind is CorrectionKind.CHANGED and self.statement is None:
            return "statement"
        if self.kind is CorrectionKind.NOT_HERE and self.project is None:
            return "project"
        return None


class CorrectionResult(_Stored):
    """What a correction did: its durable rejection, and the successor if any."""

    belief_id: str
    kind: CorrectionKind
    rejection_id: str
    new_belief_id: str | None = None


class RederivationSummary(_Stored):
    """What a re-derivation did."""

    policy_version: str
    retired: int
    """Formed beliefs retired before forming again."""
    episodes: int
    created: int
    reinforced: int
    rejected: int
    hints: int = 0
    """Open formation hints this run consumed (every episode was looked at again)."""


# --- feedback: citations, formation hints, trace retention --------------------------

MAX_CITED_ITEMS = 200
"""The most item ids one citation names (a recall returns at most 200)."""


class CitationResult(_Stored):
    """What :meth:`GraphMem.cite` recorded.

    A citation never changes a belief's confidence. It restarts decay (``cited_seq``)
    for the beliefs it names and for those the cited answer ranked above them.
    """

    trace_id: str
    cited: list[str]
    """Every item of the trace cited so far (this call and earlier ones), in the
    trace's order."""
    added: list[str]
    """The items this call cited for the first time (empty when it repeats one)."""
    refreshed: list[str]
    """The beliefs whose decay this call restarted: each newly cited belief and each
    belief the trace ranked above one (episodes do not decay)."""
    cited_seq: int | None = None
    """The generation decay now counts from for ``refreshed`` (None when none)."""


class HintState(StrEnum):
    """Where a :class:`FormationHint` is in its life."""

    OPEN = "open"
    """Queued: formation has not looked for candidates on it yet."""
    CONSUMED = "consumed"
    """Consolidation or re-derivation looked for candidates on it."""
    EXPIRED = "expired"
    """Its time ran out before anything consumed it."""


class FormationHint(_Stored):
    """A subject recall kept missing on: a cue for formation to look for candidates."""

    id: str
    subject: str
    """The missed query in normal form (see :func:`graphmem.content.query_subject`)."""
    query: str
    """The query as it was last asked."""
    misses: int
    """The misses that queued it and those since."""
    first_at: datetime
    """The first miss counted."""
    last_at: datetime
    created_at: datetime
    expires_at: datetime
    state: HintState
    consumed_at: datetime | None = None
    consumed_by: str | None = None
    """``consolidate`` or ``rederive``."""
    episodes: list[str] = []
    """When consumed: the episodes on the subject that formation looked at."""
    formed: list[str] = []
    """When consumed: the beliefs those episodes formed or reinforced then."""


class HintOutcome(_Stored):
    """What consuming one hint did."""

    hint_id: str
    subject: str
    results: list[ConsolidationResult]
    """One per episode on the subject that formation looked at, oldest first: what
    consolidating it did (empty when no such episode was waiting)."""

    @property
    def episodes(self) -> list[str]:
        """The ids of the episodes looked at."""
        return [result.episode_id for result in self.results]

    @property
    def formed(self) -> list[str]:
        """The beliefs those episodes created or reinforced."""
        ids = [i for result in self.results for i in (*result.created, *result.reinforced)]
        return list(dict.fromkeys(ids))


class TraceSweep(_Stored):
    """What :meth:`GraphMem.sweep_traces` removed."""

    cutoff: datetime
    """Traces recorded before this lost their operator fields."""
    traces: int
    """Traces whose operator fields were removed now."""
    hints: int
    """Expired formation hints deleted."""


# --- serving ------------------------------------------------------------------------

MAX_TOKEN_NAME_CHARS = 200
TokenName = Annotated[str, _limit(MAX_TOKEN_NAME_CHARS), _CLEAN]


class AccessToken(_Stored):
    """A bearer token of ``graphmem serve`` (design §9); only its sha256 is stored."""

    id: str
    principal: str
    name: str | None = None
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def revoked(self) -> bool:
        """True once the token no longer authenticates anyone."""
        return self.revoked_at is not None


# --- cross-project views ------------------------------------------------------------


class ChangeKind(StrEnum):
    """What happened to a belief or episode, as :meth:`GraphMem.changes` reports it."""

    REMEMBERED = "remembered"
    """An episode was recorded."""
    LEARNED = "learned"
    REINFORCED = "reinforced"
    ACTIVATED = "activated"
    """A provisional belief gained its second supporting episode."""
    SUPERSEDED = "superseded"
    RETIRED = "retired"
    CORRECTED = "corrected"
    FORGOTTEN = "forgotten"
    """Deleted with its text; only the statement's sha256 is reported."""
    PROMOTED = "promoted"
    CONFLICTED = "conflicted"
    ANCHOR = "anchor"
    """``graphmem index`` changed the belief's anchor state."""


class Change(_Stored):
    """One entry of the change log, with what a person needs to read it."""

    seq: int
    kind: ChangeKind
    at: datetime
    actor: str
    node_id: str
    """The belief (or, for ``remembered``, the episode) it is about."""
    project: str | None
    """Where it happened: the belief's or episode's project, the indexed project."""
    statement: str | None
    """The belief's statement or the episode's title; None once forgotten."""
    statement_sha256: str | None = None
    """For ``forgotten``: the digest of the statement that was deleted."""
    related_id: str | None = None
    """superseded: the successor; conflicted: the other belief; reinforced: the episode."""
    reason: str | None = None
    """Why it was superseded or retired."""
    correction: str | None = None
    """For ``corrected``: the kind of correction."""
    anchor_from: AnchorState | None = None
    anchor_to: AnchorState | None = None


class AnchorChange(_Stored):
    """A belief whose anchor state one index run changed."""

    belief_id: str
    statement: str
    project: str
    """The project indexed (the code the anchor was checked against)."""
    anchor_key: str
    before: AnchorState
    after: AnchorState


class ProjectOverview(_Stored):
    """One project of a principal, in :meth:`GraphMem.overview`."""

    name: str
    episodes: int
    live_beliefs: int
    """Beliefs learned here (any origin) that are neither retired nor superseded."""
    beliefs_by_type: dict[str, int]
    beliefs_by_state: dict[str, int]
    promoted: int
    """Live beliefs learned here that are now principal scope."""
    open_conflicts: int
    """Pairs of live beliefs learned here linked CONFLICTS_WITH."""
    drifted: int
    vanished: int
    last_activity: datetime | None
    """When the latest change about this project's memory was recorded."""


class PrincipalBelief(_Stored):
    """A principal-scope belief: it holds in every project of the principal."""

    id: str
    statement: str
    type: BeliefType
    confidence_band: str
    origins: list[str]


class RecurringSubject(_Stored):
    """A subject live beliefs share across projects."""

    subject: str
    projects: list[str]
    beliefs: int


class Overview(_Stored):
    """What :meth:`GraphMem.overview` returns: the principal's memory at a glance."""

    principal: str
    projects: list[ProjectOverview]
    principal_beliefs: list[PrincipalBelief]
    recurring_subjects: list[RecurringSubject]
