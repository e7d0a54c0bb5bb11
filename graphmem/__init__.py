"""graphmem: knowledge-graph memory for coding agents on Neo4j.

The public API is exactly what this module exports; everything else is internal.
"""

from graphmem.anchors.sync import IndexSummary
from graphmem.client import GraphMem
from graphmem.errors import (
    ConfigError,
    DatabaseError,
    DatabaseUnavailable,
    GraphMemError,
    InvalidInput,
    JavaNotFound,
    MigrationError,
    NotFound,
    PortInUse,
    ServerError,
    ServerStartFailed,
    StateConflict,
)
from graphmem.models import (
    AnchorCandidate,
    AnchorRef,
    AnchorState,
    AnchorStatus,
    Authority,
    Belief,
    BeliefChanges,
    BeliefState,
    BeliefType,
    Episode,
    EpisodeKind,
    Evidence,
    EvidenceRole,
    HistoryEntry,
    NewBelief,
    NewEpisode,
    Outcome,
    Portability,
    Scope,
    Trust,
)

__version__ = "0.1.0"

__all__ = [
    "AnchorCandidate",
    "AnchorRef",
    "AnchorState",
    "AnchorStatus",
    "Authority",
    "Belief",
    "BeliefChanges",
    "BeliefState",
    "BeliefType",
    "ConfigError",
    "DatabaseError",
    "DatabaseUnavailable",
    "Episode",
    "EpisodeKind",
    "Evidence",
    "EvidenceRole",
    "GraphMem",
    "GraphMemError",
    "HistoryEntry",
    "IndexSummary",
    "InvalidInput",
    "JavaNotFound",
    "MigrationError",
    "NewBelief",
    "NewEpisode",
    "NotFound",
    "Outcome",
    "PortInUse",
    "Portability",
    "Scope",
    "ServerError",
    "ServerStartFailed",
    "StateConflict",
    "Trust",
    "__version__",
]
