"""The public API is exactly what graphmem/__init__.py exports."""

from __future__ import annotations

import graphmem
from graphmem import errors

PUBLIC = {
    "Arm",
    "AsyncGraphMem",
    "Conflict",
    "Decay",
    "Candidate",
    "ConsolidationResult",
    "Extractor",
    "FormationPolicy",
    "RejectedCandidate",
    "Supersession",
    "Correction",
    "CorrectionKind",
    "CorrectionResult",
    "RederivationSummary",
    "Embedder",
    "EpisodeHit",
    "EpisodeSearchResult",
    "RecallItem",
    "RecallResult",
    "AnchorCandidate",
    "AnchorRef",
    "AnchorState",
    "AnchorStatus",
    "IndexSummary",
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
    "InvalidInput",
    "JavaNotFound",
    "MigrationError",
    "NewBelief",
    "NewEpisode",
    "NotFound",
    "Outcome",
    "Portability",
    "PortInUse",
    "Scope",
    "ServerError",
    "ServerStartFailed",
    "StateConflict",
    "Trust",
    "__version__",
}


def test_exports_are_exactly_the_public_api() -> None:
    assert set(graphmem.__all__) == PUBLIC
    for name in graphmem.__all__:
        assert hasattr(graphmem, name)


def test_every_error_is_a_graphmem_error() -> None:
    for name in dir(errors):
        value = getattr(errors, name)
        if isinstance(value, type) and issubclass(value, Exception):
            assert issubclass(value, errors.GraphMemError), name
            assert name in graphmem.__all__, name
