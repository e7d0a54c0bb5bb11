"""The derived code graph (docs/code-anchors.md, rule 1): ``:File`` and ``:Symbol`` nodes.

Writes here touch only files, symbols and their ``CONTAINS`` / ``REFERENCES`` edges
(plus re-linking the ``ANCHORED_TO`` and ``TOUCHED`` conveniences); they never create,
change or delete a memory node. What to write is decided by :mod:`graphmem.anchors`;
this module writes it, one managed transaction per batch, and counts every write.
Reads resolve anchor keys against a project's current graph.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from neo4j import ManagedTransaction

from graphmem.store.cypher import cypher
from graphmem.store.database import Database, Scalar

_WRITE_COUNTERS = (
    "nodes_created",
    "nodes_deleted",
    "relationships_created",
    "relationships_deleted",
    "properties_set",
    "labels_added",
    "labels_removed",
)

Row = Mapping[str, Scalar]
"""One row of a batch: plain properties."""


@dataclass(frozen=True)
class IndexedFile:
    """A file in the code graph: the blob it was parsed from and why it failed, if so."""

    blob: str | None
    error: str | None


@dataclass(frozen=True)
class StoredSymbol:
    """What a sync compares of a symbol already in the graph."""

    hash: str
    start_line: int
    end_line: int
    parent: str | None


@dataclass
class CodeBatch:
    """One batch of code-graph changes for a project, written in one transaction."""

    files: list[Row] = field(default_factory=list)
    """{path, blob, lang, error} of every file in the batch."""
    removed: list[str] = field(default_factory=list)
    """Keys of symbols that are gone."""
    created: list[Row] = field(default_factory=list)
    """New symbols' properties."""
    updated: list[Mapping[str, Row | bool]] = field(default_factory=list)
    """{props: {key, hash, start_line, end_line}, relink: bool} of changed symbols."""
    links: list[Row] = field(default_factory=list)
    """{child, parent, path}: CONTAINS edges to (re)create."""
    references: list[tuple[str, str]] = field(default_factory=list)
    """(caller key, callee key) of the batch's files."""
    replaced: list[str] = field(default_factory=list)
    """Paths of the batch's files the graph already held: their old references go."""


@dataclass(frozen=True)
class AnchorResolution:
    """Anchor keys looked up in one project's code graph."""

    indexed: bool
    """Whether the project has a code graph at all."""
    hashes: dict[str, str]
    """Key → the current symbol's hash, for keys that exist."""
    file_errors: dict[str, str]
    """Key → why its file could not be parsed, for keys whose file failed."""


@dataclass(frozen=True)
class NearbySymbol:
    """A symbol where a vanished anchor may have gone."""

    key: str
    qualname: str
    reason: str
    """``same content``, ``same file`` or ``same name``."""


class CodeGraphWriter:
    """Writes one project's code graph and counts every write it makes."""

    def __init__(self, db: Database, principal: str, project: str) -> None:
        self._db = db
        self._params = {"principal": principal, "project": project}
        self.writes = 0
        """Nodes, relationships, properties and labels created, set or deleted so far."""

    def _run(self, tx: ManagedTransaction, query: str, **params: object) -> None:
        counters = tx.run(cypher(query), {**self._params, **params}).consume().counters
        self.writes += sum(getattr(counters, name) for name in _WRITE_COUNTERS)

    def indexed_files(self) -> dict[str, IndexedFile]:
        """Every file in the project's code graph, by path."""
        records = self._db.read("code/files", **self._params)
        return {r["path"]: IndexedFile(r["blob"], r["error"]) for r in records}

    def symbols_of(self, paths: Sequence[str]) -> dict[str, StoredSymbol]:
        """The symbols of these files, by key."""
        records = self._db.read("code/symbols_of_files", paths=list(paths), **self._params)
        return {
            r["key"]: StoredSymbol(r["hash"], r["start_line"], r["end_line"], r["parent"])
            for r in records
        }

    def write(self, batch: CodeBatch) -> None:
        """Writes one batch all-or-nothing, then re-links anchors to new symbols."""
        created_keys = [str(symbol["key"]) for symbol in batch.created]

        contains, looked_up = positional_links(batch)

        def work(tx: ManagedTransaction) -> None:
            if batch.removed:
                self._run(tx, "code/delete_symbols", keys=batch.removed)
            self._run(
                tx,
                "code/create_symbols",
                files=batch.files,
                symbols=batch.created,
                contains=contains,
            )
            if batch.updated:
                self._run(tx, "code/update_symbols", symbols=batch.updated)
            if looked_up:
                self._run(tx, "code/link_contains", links=looked_up)
            if batch.replaced:
                self._run(tx, "code/delete_references", paths=batch.replaced)
            if batch.references:
                self._run(
                    tx, "code/create_references", references=[list(r) for r in batch.references]
                )
            if created_keys:
                self._run(tx, "code/link_anchored", keys=created_keys)
                self._run(tx, "code/link_touched", keys=created_keys)

        self._db.write(work)

    def delete_files(self, paths: Sequence[str]) -> None:
        """Removes files and their symbols."""
        self._db.write(lambda tx: self._run(tx, "code/delete_files", paths=list(paths)))

    def delete_all(self) -> None:
        """Removes the project's whole code graph (in batches; memory is untouched)."""
        self._db.run_autocommit(cypher("code/delete_project"), **self._params)


def positional_links(batch: CodeBatch) -> tuple[list[list[int]], list[Row]]:
    """Splits a batch's CONTAINS links into positions and lookups.

    ``code/create_symbols`` makes a link by position when its child is new and its
    container is new too or a file of the batch; the rest are looked up by key.

    Returns:
        ([child, parent, file] positions in ``created`` and ``files``, parent -1 when
        the file contains it), and the links to look up.
    """
    created = {str(symbol["key"]): at for at, symbol in enumerate(batch.created)}
    files = {str(file["path"]): at for at, file in enumerate(batch.files)}
    contains: list[list[int]] = []
    looked_up: list[Row] = []
    for link in batch.links:
        child, parent, path = created.get(str(link["child"])), link["parent"], str(link["path"])
        if child is not None and parent is None and path in files:
            contains.append([child, -1, files[path]])
        elif child is not None and parent is not None and str(parent) in created:
            contains.append([child, created[str(parent)], -1])
        else:  # a symbol that was already there, or one in a container that was
            looked_up.append(link)
    return contains, looked_up


def resolve_anchors(
    db: Database, principal: str, project: str, keys: Sequence[tuple[str, str]]
) -> AnchorResolution:
    """Looks up (key, path) anchors in one project's current code graph."""
    if not keys:
        return AnchorResolution(False, {}, {})
    records = db.read(
        "anchor/resolve",
        principal=principal,
        project=project,
        anchors=[{"key": key, "path": path} for key, path in keys],
    )
    return AnchorResolution(
        indexed=bool(records[0]["indexed"]) if records else False,
        hashes={r["key"]: r["hash"] for r in records if r["hash"] is not None},
        file_errors={r["key"]: r["file_error"] for r in records if r["file_error"] is not None},
    )


def nearby_symbols(
    db: Database, principal: str, project: str, anchors: Sequence[Mapping[str, str | None]]
) -> dict[str, list[NearbySymbol]]:
    """Where vanished anchors may have gone: anchor key → nearby symbols.

    Each anchor is ``{key, hash, path, name}``.
    """
    found: dict[str, list[NearbySymbol]] = {}
    records = db.read("anchor/candidates", principal=principal, project=project, anchors=anchors)
    for record in records:
        found.setdefault(record["anchor"], []).append(
            NearbySymbol(record["key"], record["qualname"], record["reason"])
        )
    return found
