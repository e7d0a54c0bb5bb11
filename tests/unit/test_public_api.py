"""The public API is exactly what graphmem/__init__.py exports."""

from __future__ import annotations

import graphmem
from graphmem import errors

PUBLIC = {
    "AnchorChange",
    "Change",
    "ChangeKind",
    "Overview",
    "PrincipalBelief",
    "ProjectOverview",
    "RecurringSubject",
    "ClientClosed",
    "AccessToken",
    "Admin",
    "IssuedToken",
    "ConcurrentWrite",
    "IdempotencyConflict",
    "WriteConflict",
    "Arm",
    "AsyncGraphMem",
    "Conflict",
    "Decay",
    "Candidate",
    "ConsolidationResult",
    "ExpiryResult",
    "Extractor",
    "FormationPolicy",
    "RejectedCandidate",
    "Supersession",
    "Correction",
    "CorrectionKind",
    "CorrectionResult",
    "RederivationSummary",
    "CitationResult",
    "FormationHint",
    "HintOutcome",
    "HintState",
    "TraceSweep",
    "Embedder",
    "EpisodeHit",
    "EpisodeSearchResult",
    "RecallItem",
    "RecallResult",
    "AnchorCandidate",
    "AnchorRef",
    "AnchorState",
    "AnchorStatus",
    "ExportSummary",
    "ImportSummary",
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
    "Sensitivity",
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
        if isinstance(value, type) and issubclass(value, Exception) and name[0] != "_":
            assert issubclass(value, errors.GraphMemError), name
            assert name in graphmem.__all__, name


def test_each_cause_has_its_own_exit_code() -> None:
    codes = {
        errors.InvalidInput: 1,
        errors.DatabaseUnavailable: 3,
        errors.DatabaseError: 3,
        errors.MigrationError: 3,
        errors.NotFound: 4,
        errors.StateConflict: 5,
        errors.ConcurrentWrite: 6,
        errors.ConfigError: 7,
        errors.ServerError: 8,
        errors.PortInUse: 8,
        errors.ClientClosed: 9,
        errors.IdempotencyConflict: 10,
    }
    for error, code in codes.items():
        assert error("x").exit_code == code, error
    assert not issubclass(errors.NotFound, errors.InvalidInput)
    assert not issubclass(errors.ConcurrentWrite, errors.InvalidInput)
    assert errors.ConcurrentWrite("x").retryable and not errors.StateConflict("x").retryable
    assert errors.ConcurrentWrite("x").to_dict()["retryable"] is True
    assert issubclass(errors.IdempotencyConflict, errors.WriteConflict)
    assert not errors.IdempotencyConflict("x").retryable
