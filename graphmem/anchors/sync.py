"""Builds and updates a project's derived code graph from source (design §4, rule 1).

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
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from neo4j import ManagedTransaction

from graphmem.anchors.extract import ExtractedSymbol, FileExtraction
from graphmem.anchors.files import Listing, SourceFile, list_sources
from graphmem.anchors.keys import git_blob_id
from graphmem.anchors.parsing import Task, parse_files
from graphmem.errors import InvalidInput
from graphmem.store.cypher import cypher
from graphmem.store.database import Database

WRITE_BATCH_FILES = 200

_WRITE_COUNTERS = (
    "nodes_created",
    "nodes_deleted",
    "relationships_created",
    "relationships_deleted",
    "properties_set",
    "labels_added",
    "labels_removed",
)


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

    def to_dict(self) -> dict[str, Any]:
        """Returns the summary as a JSON-safe object."""
        data = asdict(self)
        data["files"] = {
            "seen": data.pop("files_seen"),
            "parsed": data.pop("files_parsed"),
            "skipped": data.pop("files_skipped"),
            "removed": data.pop("files_removed"),
            "failed": len(self.failed),
        }
        data["symbols"] = {
            "added": data.pop("symbols_added"),
            "changed": data.pop("symbols_changed"),
            "removed": data.pop("symbols_removed"),
        }
        return data


def _batches(items: Iterable[FileExtraction], size: int) -> Iterator[list[FileExtraction]]:
    batch: list[FileExtraction] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


class _Writer:
    """Writes code-graph changes for one project and counts every write."""

    def __init__(self, db: Database, principal: str, project: str) -> None:
        self.db = db
        self.params = {"principal": principal, "project": project}
        self.writes = 0

    def run(self, tx: ManagedTransaction, query: str, **params: Any) -> None:
        counters = tx.run(cypher(query), {**self.params, **params}).consume().counters
        self.writes += sum(getattr(counters, name) for name in _WRITE_COUNTERS)

    def existing_symbols(self, paths: Sequence[str]) -> dict[str, dict[str, Any]]:
        records = self.db.read("code/symbols_of_files", paths=list(paths), **self.params)
        return {record["key"]: dict(record) for record in records}

    def write_batch(self, batch: Sequence[FileExtraction], summary: IndexSummary) -> None:
        existing = self.existing_symbols([f.path for f in batch])
        fresh: dict[str, tuple[FileExtraction, ExtractedSymbol]] = {
            symbol.key: (extraction, symbol)
            for extraction in batch
            for symbol in extraction.symbols
        }
        created = [key for key in fresh if key not in existing]
        removed = [key for key in existing if key not in fresh]
        updates: list[dict[str, Any]] = []
        links: list[dict[str, Any]] = []
        for key, (extraction, symbol) in fresh.items():
            old = existing.get(key)
            if old is None:
                links.append({"child": key, "parent": symbol.parent, "path": extraction.path})
                continue
            relink = old["parent"] != symbol.parent
            if relink:
                links.append({"child": key, "parent": symbol.parent, "path": extraction.path})
            if old["hash"] != symbol.hash:
                summary.symbols_changed += 1
            if relink or (old["hash"], old["start_line"], old["end_line"]) != (
                symbol.hash,
                symbol.start_line,
                symbol.end_line,
            ):
                props = {
                    "key": key,
                    "hash": symbol.hash,
                    "start_line": symbol.start_line,
                    "end_line": symbol.end_line,
                }
                updates.append({"props": props, "relink": relink})
        summary.symbols_added += len(created)
        summary.symbols_removed += len(removed)
        files = [{"path": f.path, "blob": f.blob, "lang": f.lang, "error": f.error} for f in batch]
        references = [list(ref) for extraction in batch for ref in extraction.references]
        new_symbols = [_symbol_props(*fresh[key]) for key in created]

        def work(tx: ManagedTransaction) -> None:
            self.run(tx, "code/upsert_files", files=files)
            if removed:
                self.run(tx, "code/delete_symbols", keys=removed)
            if new_symbols:
                self.run(tx, "code/create_symbols", symbols=new_symbols)
            if updates:
                self.run(tx, "code/update_symbols", symbols=updates)
            if links:
                self.run(tx, "code/link_contains", links=links)
            self.run(tx, "code/delete_references", paths=[f.path for f in batch])
            if references:
                self.run(tx, "code/create_references", references=references)
            if created:
                self.run(tx, "code/link_anchored", keys=created)
                self.run(tx, "code/link_touched", keys=created)

        self.db.write(work)

    def delete_files(self, paths: Sequence[str]) -> None:
        self.db.write(lambda tx: self.run(tx, "code/delete_files", paths=list(paths)))


def _symbol_props(extraction: FileExtraction, symbol: ExtractedSymbol) -> dict[str, Any]:
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
    root: Path, listing: Listing, known: dict[str, tuple[str | None, str | None]]
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
        blob, error = known.get(source.path, (None, None))
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
        progress: Called with (files done, files to parse) as batches are written.

    Raises:
        InvalidInput: ``root`` is not a directory.
    """
    started = time.perf_counter()
    if not root.is_dir():
        raise InvalidInput(f"PATH: {root} is not a directory", field="PATH", rule="directory")
    root = Path(os.path.realpath(root))
    summary = IndexSummary(project=project, root=str(root))
    writer = _Writer(db, principal, project)
    if rebuild:
        db.run_autocommit(cypher("code/delete_project"), **writer.params)
    known = {
        record["path"]: (record["blob"], record["error"])
        for record in db.read("code/files", **writer.params)
    }
    listing = list_sources(root)
    summary.files_seen = len(listing.files) + len(listing.failures)
    summary.ignored = dict(sorted(Counter(listing.ignored).items()))
    tasks, failed, summary.files_skipped = _plan(root, listing, known)
    summary.failed = [{"path": f.path, "reason": f.error or ""} for f in failed]
    failed = [f for f in failed if known.get(f.path) != (f.blob, f.error)]  # changed only
    present = {s.path for s in listing.files} | set(listing.failures)
    gone = sorted(path for path in known if path not in present)
    if gone:
        existing = writer.existing_symbols(gone)
        summary.symbols_removed += len(existing)
        writer.delete_files(gone)
        summary.files_removed = len(gone)
    if failed:
        writer.write_batch(failed, summary)
    done = 0
    results = parse_files(tasks, workers or os.cpu_count() or 1)
    for batch in _batches(results, WRITE_BATCH_FILES):
        writer.write_batch(batch, summary)
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
