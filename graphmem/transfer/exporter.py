"""A principal's memory rows as the lines of an export file (byte-stable)."""

from __future__ import annotations

import hashlib
from collections import Counter
from importlib import metadata
from typing import IO

from graphmem.store import transfer as transfer_store
from graphmem.store.database import Database
from graphmem.store.transfer import MemoryRows, Props
from graphmem.transfer.format import (
    FORMAT,
    KINDS,
    SEQ_PROPS,
    VERSION,
    BeliefRecord,
    EpisodeRecord,
    EventRecord,
    Header,
    LinkRecord,
    ProjectRecord,
    Record,
    RejectionRecord,
    TombstoneRecord,
    dump_line,
    encode_props,
)
from graphmem.transfer.summary import ExportSummary


def _ranks(rows: MemoryRows) -> dict[int, int]:
    """Every seq the rows name → its dense rank (1-based), in seq order."""
    seqs: set[int] = set()
    for node in rows.episodes + rows.beliefs:
        if node.seq is not None:
            seqs.add(node.seq)
    seqs.update(event.seq for event in rows.events)
    for props in [b.props for b in rows.beliefs]:
        seqs.update(_seq_props(props, "belief").values())
    for props in [e.props for e in rows.events]:
        seqs.update(_seq_props(props, "event").values())
    return {seq: rank for rank, seq in enumerate(sorted(seqs), start=1)}


def _seq_props(props: Props, kind: str) -> dict[str, int]:
    return {
        name: value
        for name in SEQ_PROPS.get(kind, ())
        if isinstance(value := props.get(name), int) and not isinstance(value, bool)
    }


def _ranked(props: Props, kind: str, ranks: dict[int, int]) -> Props:
    ranked = dict(props)
    for name, seq in _seq_props(props, kind).items():
        ranked[name] = ranks[seq]
    return ranked


def export_records(rows: MemoryRows) -> list[Record]:
    """The rows as records, in file order: by kind, then by seq, ties by id."""
    ranks = _ranks(rows)
    seq_of = {node.id: node.seq or 0 for node in rows.episodes + rows.beliefs}
    records: list[Record] = [
        ProjectRecord(kind="project", name=p.name, props=encode_props(p.props))
        for p in sorted(rows.projects, key=lambda p: p.name)
    ]
    exported = set(seq_of)
    for e in sorted(rows.episodes, key=lambda n: (n.seq or 0, n.id)):
        assert e.seq is not None  # every episode is written with a seq
        parent = e.link if e.link in exported else None
        records.append(
            EpisodeRecord(
                kind="episode",
                id=e.id,
                seq=ranks[e.seq],
                parent=parent,
                props=encode_props(e.props),
            )
        )
    for b in sorted(rows.beliefs, key=lambda n: (n.seq or 0, n.id)):
        assert b.seq is not None  # every belief is written with a seq
        props = encode_props(_ranked(b.props, "belief", ranks))
        records.append(BeliefRecord(kind="belief", id=b.id, seq=ranks[b.seq], props=props))
    links = sorted(
        rows.links,
        key=lambda link: (
            KINDS.index(link.kind),
            seq_of[link.source],
            seq_of[link.target],
            link.source,
            link.target,
        ),
    )
    records += [
        LinkRecord(kind=k.kind, source=k.source, target=k.target, props=encode_props(k.props))
        for k in links
    ]
    records += [
        RejectionRecord(
            kind="rejection",
            id=r.id,
            belief=r.link if r.link in exported else None,
            props=encode_props(r.props),
        )
        for r in sorted(rows.rejections, key=lambda n: n.id)
    ]
    records += [
        TombstoneRecord(kind="tombstone", id=t.id, props=encode_props(t.props))
        for t in sorted(rows.tombstones, key=lambda n: n.id)
    ]
    records += [
        EventRecord(
            kind="event",
            seq=ranks[e.seq],
            about=e.about,
            about_kind=e.about_kind,
            props=encode_props(_ranked(e.props, "event", ranks)),
        )
        for e in sorted(rows.events, key=lambda e: e.seq)
    ]
    return records


def export_lines(
    principal: str, project: str | None, rows: MemoryRows, version: str
) -> tuple[list[str], dict[str, int]]:
    """The file's lines (without newlines), header first, and the records per kind."""
    records = export_records(rows)
    found: Counter[str] = Counter(record.kind for record in records)
    counts = {kind: found.get(kind, 0) for kind in KINDS}
    header = Header(
        format=FORMAT,
        version=VERSION,
        graphmem=version,
        principal=principal,
        project=project,
        seqs=len(_ranks(rows)),
        counts=counts,
        principal_props=encode_props(rows.principal_props),
    )
    return [dump_line(header)] + [dump_line(record) for record in records], counts


def export_memory(
    db: Database, principal: str, project: str | None, out: IO[str], include_secret: bool
) -> ExportSummary:
    """Writes ``principal``'s memory (of ``project``, or all) to ``out``.

    Secret episodes and beliefs only with ``include_secret`` (else counted as withheld).
    """
    rows, withheld = transfer_store.read_memory(db, principal, project, include_secret)
    lines, counts = export_lines(principal, project, rows, metadata.version("graphmem"))
    digest = hashlib.sha256()
    for line in lines:
        text = line + "\n"
        out.write(text)
        digest.update(text.encode("utf-8"))
    return ExportSummary(
        principal=principal,
        project=project,
        records=counts,
        lines=len(lines),
        sha256=digest.hexdigest(),
        withheld=withheld,
    )
