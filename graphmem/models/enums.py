"""The vocabulary: kinds of episodes and beliefs, authority, portability, sensitivity.

Also the orders between those values, the defaults, and the read-time anchor states.
"""

from __future__ import annotations

from enum import StrEnum


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
    """Whether an episode's content may form beliefs directly (rule 5, docs/architecture.md)."""

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
    """How sensitive a node's text is (docs/data-safety.md); ``rank`` orders the levels.

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


class AnchorState(StrEnum):
    """Whether a belief's anchor still matches the code (docs/code-anchors.md), read-time only."""

    UNANCHORED = "unanchored"
    VERIFIED = "verified"
    VANISHED = "vanished"
    UNVERIFIABLE = "unverifiable"
    DRIFTED = "drifted"
