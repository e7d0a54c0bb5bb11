"""graphmem: knowledge-graph memory for coding agents on Neo4j.

The public API is exactly what this module exports; everything else is internal.

Importing :mod:`graphmem` itself loads nothing: each public name is imported from its
module on first use (PEP 562), so a process that needs one pure module, such as the
hook command on an agent host's hot path, never pays for the Neo4j driver, pydantic or
the embedder. Not even :mod:`typing` or :mod:`importlib` is imported here: the hook's
fast path (:mod:`graphmem.capture.forward`) is measured against a bare interpreter
start, and ``TYPE_CHECKING`` below is the constant type checkers read as true.
"""

from __future__ import annotations

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

    from graphmem.admin import Admin, IssuedToken
    from graphmem.anchors.sync import IndexSummary
    from graphmem.async_client import AsyncGraphMem
    from graphmem.client import GraphMem
    from graphmem.errors import (
        ClientClosed,
        ConcurrentWrite,
        ConfigError,
        DatabaseError,
        DatabaseUnavailable,
        GraphMemError,
        IdempotencyConflict,
        InvalidInput,
        JavaNotFound,
        MigrationError,
        NotFound,
        PortInUse,
        ServerError,
        ServerStartFailed,
        StateConflict,
        WriteConflict,
    )
    from graphmem.formation.extract import Candidate, Extractor
    from graphmem.models import (
        AccessToken,
        AnchorCandidate,
        AnchorChange,
        AnchorRef,
        AnchorState,
        AnchorStatus,
        Arm,
        Authority,
        Belief,
        BeliefChanges,
        BeliefState,
        BeliefType,
        Change,
        ChangeKind,
        CitationResult,
        Conflict,
        ConsolidationResult,
        Correction,
        CorrectionKind,
        CorrectionResult,
        Decay,
        Episode,
        EpisodeHit,
        EpisodeKind,
        EpisodeSearchResult,
        Evidence,
        EvidenceRole,
        ExpiryResult,
        FormationHint,
        FormationPolicy,
        HintOutcome,
        HintState,
        HistoryEntry,
        NewBelief,
        NewEpisode,
        Outcome,
        Overview,
        Portability,
        PrincipalBelief,
        ProjectOverview,
        RecallItem,
        RecallResult,
        RecurringSubject,
        RederivationSummary,
        RejectedCandidate,
        Scope,
        Sensitivity,
        Supersession,
        TraceSweep,
        Trust,
    )
    from graphmem.transfer.summary import ExportSummary, ImportSummary
    from graphmem.vectors.protocol import Embedder

_SOURCES = (
    "graphmem.admin",
    "graphmem.anchors.sync",
    "graphmem.async_client",
    "graphmem.client",
    "graphmem.errors",
    "graphmem.formation.extract",
    "graphmem.models",
    "graphmem.transfer.summary",
    "graphmem.vectors.protocol",
)
"""The modules the public names come from."""

__version__ = "0.1.0"

__all__ = [
    "AccessToken",
    "Admin",
    "AnchorCandidate",
    "AnchorChange",
    "AnchorRef",
    "AnchorState",
    "AnchorStatus",
    "Arm",
    "AsyncGraphMem",
    "Authority",
    "Belief",
    "BeliefChanges",
    "BeliefState",
    "BeliefType",
    "Candidate",
    "Change",
    "ChangeKind",
    "CitationResult",
    "ClientClosed",
    "ConcurrentWrite",
    "ConfigError",
    "Conflict",
    "ConsolidationResult",
    "Correction",
    "CorrectionKind",
    "CorrectionResult",
    "DatabaseError",
    "DatabaseUnavailable",
    "Decay",
    "Embedder",
    "Episode",
    "EpisodeHit",
    "EpisodeKind",
    "EpisodeSearchResult",
    "Evidence",
    "EvidenceRole",
    "ExpiryResult",
    "ExportSummary",
    "Extractor",
    "FormationHint",
    "FormationPolicy",
    "GraphMem",
    "GraphMemError",
    "HintOutcome",
    "HintState",
    "HistoryEntry",
    "IdempotencyConflict",
    "ImportSummary",
    "IndexSummary",
    "InvalidInput",
    "IssuedToken",
    "JavaNotFound",
    "MigrationError",
    "NewBelief",
    "NewEpisode",
    "NotFound",
    "Outcome",
    "Overview",
    "PortInUse",
    "Portability",
    "PrincipalBelief",
    "ProjectOverview",
    "RecallItem",
    "RecallResult",
    "RecurringSubject",
    "RederivationSummary",
    "RejectedCandidate",
    "Scope",
    "Sensitivity",
    "ServerError",
    "ServerStartFailed",
    "StateConflict",
    "Supersession",
    "TraceSweep",
    "Trust",
    "WriteConflict",
    "__version__",
]


def __getattr__(name: str) -> Any:
    """Imports a public name from its module on first use."""
    if name not in __all__:
        raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
    import importlib

    for source in _SOURCES:
        module = importlib.import_module(source)
        if hasattr(module, name):
            value = getattr(module, name)
            globals()[name] = value
            return value
    raise AttributeError(name)  # unreachable: tests/unit/test_public_api.py
