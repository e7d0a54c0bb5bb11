"""Builds and updates a project's derived code graph from source (docs/code-anchors.md, rule 1).

Files whose git blob id is unchanged are skipped before parsing; changed files are
parsed on all cores and written in batches, each batch one managed transaction that
only touches ``:File`` and ``:Symbol`` nodes and their edges. After each batch the
``ANCHORED_TO`` and ``TOUCHED`` edges of new symbols are re-linked. Indexing an
unchanged tree writes nothing.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from graphmem.anchors.extract import ExtractedSymbol, FileExtraction
from graphmem.anchors.files import Listing, SourceFile, list_sources
from graphmem.anchors.keys import git_blob_id
from graphmem.anchors.parsing import Task, parse_files
from graphmem.errors import InvalidInput
from graphmem.models import AnchorChange
from graphmem.store.codegraph import (
    CodeBatch,
    CodeGraphWriter,
    IndexedFile,
    Row,
    StoredSymbol,
)
from graphmem.store.database import Database, Scalar

WRITE_BATCH_FILES = 200


@dataclass
class IndexSummary:
    """What one ``graphmem index`` run saw and did."""

    project: str
    root: str
    files_seen: int = 0
    files_parsed: int = 0
    files_skipped: int = 0
    """Unchanged since the last run (same blob id): not parsed."""
    files_removed: int = 0
    failed: list[dict[str, str]] = field(default_factory=list)
    """Supported files that could not be indexed, each with its path and reason."""
    ignored: dict[str, int] = field(default_factory=dict)
    """Files that are not indexed at all (unsupported language, symlinks), by reason."""
    symbols_added: int = 0
    symbols_changed: int = 0
    symbols_removed: int = 0
    writes: int = 0
    """Nodes, relationships, properties and labels created, set or deleted."""
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)
    """What the run could not do as asked, in words (e.g. a directory git ignores)."""
    anchor_changes: list[AnchorChange] = field(default_factory=list)
    """Beliefs learned in the project whose anchor state this run changed (the client
    fills it in; indexing itself never reads or writes memory)."""

    @property
    def files(self) -> dict[str, int]:
        """File counts: seen, parsed, skipped (unchanged), removed, failed."""
        return {
            "seen": self.files_seen,
            "parsed": self.files_parsed,
            "skipped": self.files_skipped,
            "removed": self.files_removed,
            "failed": len(self.failed),
        }

    @property
    def symbols(self) -> dict[str, int]:
        """Symbol counts: added, changed, removed."""
        return {
            "added": self.symbols_added,
            "changed": self.symbols_changed,
            "removed": self.symbols_removed,
        }

    def to_dict(self) -> dict[str, object]:
        """Returns the summary as a JSON-safe object (counts grouped as files, symbols)."""
        return {
            "project": self.project,
            "root": self.root,
            "files": self.files,
            "failed": self.failed,
            "ignored": self.ignored,
            "warnings": self.warnings,
            "symbols": self.symbols,
            "writes": self.writes,
            "seconds": self.seconds,
            "anchor_changes": [change.model_dump(mode="json") for change in self.anchor_changes],
        }


def _batches(items: Iterable[FileExtraction], size: int) -> Iterator[list[FileExtraction]]:
    batch: list[FileExtraction] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _changes(
    batch: Sequence[FileExtraction],
    stored: Sequence[str],
    existing: dict[str, StoredSymbol],
    summary: IndexSummary,
) -> CodeBatch:
    """What to write for a batch of parsed files, given the ``stored`` files' symbols."""
    fresh: dict[str, tuple[FileExtraction, ExtractedSymbol]] = {
        symbol.key: (extraction, symbol) for extraction in batch for symbol in extraction.symbols
    }
    changes = CodeBatch(
        files=[{"path": f.path, "blob": f.blob, "lang": f.lang, "error": f.error} for f in batch],
        removed=[key for key in existing if key not in fresh],
        references=[ref for extraction in batch for ref in extraction.references],
        replaced=list(stored),
    )
    for key, (extraction, symbol) in fresh.items():
        old = existing.get(key)
        if old is None:
            changes.created.append(_symbol_props(extraction, symbol))
            changes.links.append({"child": key, "parent": symbol.parent, "path": extraction.path})
            continue
        relink = old.parent != symbol.parent
        if relink:
            changes.links.append({"child": key, "parent": symbol.parent, "path": extraction.path})
        if old.hash != symbol.hash:
            summary.symbols_changed += 1
        if relink or (old.hash, old.start_line, old.end_line) != (
            symbol.hash,
            symbol.start_line,
            symbol.end_line,
        ):
            props: Row = {
                "key": key,
                "hash": symbol.hash,
                "start_line": symbol.start_line,
                "end_line": symbol.end_line,
            }
            changes.updated.append({"props": props, "relink": relink})
    summary.symbols_added += len(changes.created)
    summary.symbols_removed += len(changes.removed)
    return changes


def _write_batch(
    writer: CodeGraphWriter,
    batch: Sequence[FileExtraction],
    summary: IndexSummary,
    known: dict[str, IndexedFile],
) -> None:
    # A file the graph does not hold has no symbols there (files and their symbols are
    # written and deleted together): a cold index reads nothing back.
    stored = [f.path for f in batch if f.path in known]
    writer.write(_changes(batch, stored, writer.symbols_of(stored) if stored else {}, summary))


def _symbol_props(extraction: FileExtraction, symbol: ExtractedSymbol) -> dict[str, Scalar]:
    return {
        "key": symbol.key,
        "lang": extraction.lang,
        "path": extraction.path,
        "name": symbol.name,
        "qualname": symbol.qualname,
        "kind": symbol.kind,
        "hash": symbol.hash,
        "start_line": symbol.start_line,
        "end_line": symbol.end_line,
    }


def _read(root: Path, source: SourceFile) -> bytes | str:
    """The file's bytes, or why it cannot be read."""
    try:
        return (root / source.path).read_bytes()
    except OSError as error:
        return f"unreadable: {error.strerror}"


def _plan(
    root: Path, listing: Listing, known: dict[str, IndexedFile]
) -> tuple[list[Task], list[FileExtraction], int]:
    """Splits the listing into files to parse, files to record as failed, and skips."""
    tasks: list[Task] = []
    failed = [
        FileExtraction(path, lang, "", error=reason)
        for path, (lang, reason) in sorted(listing.failures.items())
    ]
    skipped = 0
    for source in listing.files:
        data = _read(root, source)
        if isinstance(data, str):
            failed.append(FileExtraction(source.path, source.lang, "", error=data))
            continue
        indexed = known.get(source.path, IndexedFile(None, None))
        blob, error = indexed.blob, indexed.error
        if blob == git_blob_id(data):
            if error is None:
                skipped += 1
            else:  # still failing: reported again, nothing to write
                failed.append(FileExtraction(source.path, source.lang, blob, error=error))
            continue
        tasks.append((source.path, source.lang, data))
    return tasks, failed, skipped


def index_code(
    db: Database,
    principal: str,
    project: str,
    root: Path,
    *,
    workers: int | None = None,
    rebuild: bool = False,
    include_ignored: bool = False,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> IndexSummary:
    """Brings ``project``'s code graph in line with the source under ``root``.

    Args:
        db: The database.
        principal: Whose code graph.
        project: Which project's code graph.
        root: The directory to index; keys use paths relative to it.
        workers: Parser processes (default: all cores).
        rebuild: Delete the project's code graph first and index everything anew.
        include_ignored: Index the files git ignores too (a walk instead of git).
        progress: Called with (files done, files to parse) as batches are written.

    Raises:
        InvalidInput: ``root`` is not a directory.
    """
    started = time.perf_counter()
    if not root.is_dir():
        raise InvalidInput(f"PATH: {root} is not a directory", field="PATH", rule="directory")
    root = Path(os.path.realpath(root))
    summary = IndexSummary(project=project, root=str(root))
    writer = CodeGraphWriter(db, principal, project)
    if rebuild:
        writer.delete_all()
    known = writer.indexed_files()
    listing = list_sources(root, include_ignored=include_ignored)
    if listing.git_ignored:
        summary.warnings.append(
            f"git ignores all {listing.git_ignored} files under {root}, so none were "
            "indexed; pass --include-ignored (include_ignored=True) to index them anyway"
        )
    summary.files_seen = len(listing.files) + len(listing.failures)
    summary.ignored = dict(sorted(Counter(listing.ignored).items()))
    tasks, failed, summary.files_skipped = _plan(root, listing, known)
    summary.failed = [{"path": f.path, "reason": f.error or ""} for f in failed]
    failed = [f for f in failed if known.get(f.path) != IndexedFile(f.blob, f.error)]  # changed
    present = {s.path for s in listing.files} | set(listing.failures)
    gone = sorted(path for path in known if path not in present)
    if gone:
        summary.symbols_removed += len(writer.symbols_of(gone))
        writer.delete_files(gone)
        summary.files_removed = len(gone)
    if failed:
        _write_batch(writer, failed, summary, known)
    done = 0
    results = parse_files(tasks, workers or os.cpu_count() or 1)
    for batch in _batches(results, WRITE_BATCH_FILES):
        _write_batch(writer, batch, summary, known)
        for extraction in batch:
            if extraction.error is None:
                summary.files_parsed += 1
            else:
                summary.failed.append({"path": extraction.path, "reason": extraction.error})
        done += len(batch)
        progress(done, len(tasks))
    summary.failed.sort(key=lambda failure: failure["path"])
    summary.writes = writer.writes
    summary.seconds = round(time.perf_counter() - started, 3)
    return summary
