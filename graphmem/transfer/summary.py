"""What an export or an import reports."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class ExportSummary(BaseModel):
    """One export: whose memory, how many records of each kind, the file's digest."""

    model_config = ConfigDict(frozen=True)

    principal: str
    project: str | None
    records: dict[str, int]
    """Records written per kind (project, episode, belief, derived_from, ...)."""
    lines: int
    """Lines written, the header included."""
    sha256: str
    """The sha256 of the bytes written (UTF-8), to compare two exports."""
    withheld: int = 0
    """Secret episodes and beliefs left out (``include_secret`` keeps them)."""


class ImportSummary(BaseModel):
    """One import: who it was written for, what was written, what was there already."""

    model_config = ConfigDict(frozen=True)

    principal: str
    """Whose memory the records were written into."""
    source_principal: str
    """Whose memory the file holds."""
    records: dict[str, int]
    """Records written per kind (all zero when the file was imported before)."""
    already_present: bool
    """True when the store already held every record: nothing was written."""
    new_ids: int
    """Ids that were taken by another principal, so written under new ones."""
    seqs: int
    """Seqs drawn from the target store's clock."""
