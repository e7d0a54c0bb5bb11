"""An export file validated whole, then written for one principal in slices.

The store writes it in slices (:mod:`graphmem.store.transfer`): recall sees it when the
last one commits, a failure undoes it, and the same file imported again after its
process died finishes it.

Ids are kept. When an import re-owns the memory (``as_principal``), an id another
principal holds is written under a new id derived from it and the new principal, the
same one every time, so importing the same file again finds everything present and
writes nothing. Without re-owning, the file must be the client's principal's own.
"""

from __future__ import annotations

import hashlib
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from graphmem.errors import StateConflict
from graphmem.store import transfer as transfer_store
from graphmem.store.database import Database, Value
from graphmem.store.transfer import (
    EventRow,
    LinkRow,
    MemoryRows,
    NodeRow,
    Ownership,
    ProjectRow,
    Props,
)
from graphmem.transfer.format import (
    ID_PROPS,
    KINDS,
    SEQ_PROPS,
    BeliefRecord,
    EpisodeRecord,
    EventRecord,
    Header,
    JsonProp,
    LinkRecord,
    ProjectRecord,
    Record,
    RejectionRecord,
    TombstoneRecord,
    decode_props,
    numbered_lines,
    parse_header,
    parse_record,
    problem,
)
from graphmem.transfer.summary import ImportSummary
from graphmem.trust.sensitivity import (
    BELIEF_TEXTS,
    EPISODE_TEXTS,
    effective,
    parse_sensitivity,
    texts_of,
)

Progress = Callable[[int, int], None]


@dataclass
class ParsedExport:
    """A whole export file, every line valid and every reference resolved."""

    header: Header
    records: list[tuple[int, Record]] = field(default_factory=list)
    """Each record with its line number."""
    node_lines: dict[str, int] = field(default_factory=dict)
    """Each node id (episode, belief, rejection, tombstone) → the line defining it."""


def _check_reference(
    line: int, name: str, target: str | None, kinds: dict[str, str], wanted: str
) -> None:
    if target is not None and kinds.get(target) != wanted:
        raise problem(line, name, "reference", f"{target} is no {wanted} in this file")


def parse_export(lines: Iterable[str | bytes]) -> ParsedExport:
    """Validates every line of an export before anything is written.

    Raises:
        InvalidInput: With ``line`` and ``field``: the first line that is not JSON,
            breaks the format, names a principal, repeats an id or a seq, refers to a
            node the file does not hold, or a count the header gives that is wrong.
    """
    numbered = numbered_lines(lines)
    first = next(numbered, None)
    if first is None:
        raise problem(1, "line", "empty", "the file is empty: no header line")
    parsed = ParsedExport(parse_header(first[1]))
    kinds: dict[str, str] = {}
    event_seqs: set[int] = set()
    last = 1
    for number, text in numbered:
        last = number
        record = parse_record(text, number, parsed.header.seqs)
        if isinstance(record, EpisodeRecord | BeliefRecord | RejectionRecord | TombstoneRecord):
            if record.id in kinds:
                raise problem(number, "id", "unique", f"{record.id} is defined twice")
            kinds[record.id] = record.kind
            parsed.node_lines[record.id] = number
        if isinstance(record, EventRecord):
            if record.seq in event_seqs:
                raise problem(number, "seq", "unique", f"two events have seq {record.seq}")
            event_seqs.add(record.seq)
        parsed.records.append((number, record))
    for number, record in parsed.records:
        _check_references(number, record, kinds)
    counts: Counter[str] = Counter(record.kind for _, record in parsed.records)
    for kind in KINDS:
        if counts.get(kind, 0) != parsed.header.counts.get(kind, 0):
            raise problem(
                last,
                f"counts.{kind}",
                "count",
                f"the header counts {parsed.header.counts.get(kind, 0)} {kind} records, "
                f"the file holds {counts.get(kind, 0)} (is it cut short?)",
            )
    return parsed


def _check_references(number: int, record: Record, kinds: dict[str, str]) -> None:
    if isinstance(record, EpisodeRecord):
        _check_reference(number, "parent", record.parent, kinds, "episode")
    elif isinstance(record, LinkRecord):
        _check_reference(number, "source", record.source, kinds, "belief")
        target = "episode" if record.kind == "derived_from" else "belief"
        _check_reference(number, "target", record.target, kinds, target)
    elif isinstance(record, RejectionRecord):
        _check_reference(number, "belief", record.belief, kinds, "belief")
    elif isinstance(record, EventRecord) and record.about_kind is not None:
        _check_reference(number, "about", record.about, kinds, record.about_kind)


def derived_id(node_id: str, principal: str) -> str:
    """A new id for ``node_id`` re-owned by ``principal``: always the same one.

    It keeps the UUIDv7's time part (so ids still sort by creation time) and takes
    its random part from a hash of the principal and the old id.
    """
    digest = hashlib.sha256(f"{principal}\n{node_id}".encode()).digest()
    random = int.from_bytes(digest[:8], "big") & ((1 << 62) - 1)
    value = uuid.UUID(node_id).int >> 64 << 64 | 0b10 << 62 | random
    return str(uuid.UUID(int=value))


def _project_names(parsed: ParsedExport) -> list[str]:
    names = {r.name for _, r in parsed.records if isinstance(r, ProjectRecord)}
    names |= {str(r.props["project"]) for _, r in parsed.records if isinstance(r, EpisodeRecord)}
    return sorted(names)


class _Plan:
    """Decides, from what the store holds, which ids to use and whether to write."""

    def __init__(self, parsed: ParsedExport, principal: str, reowning: bool) -> None:
        self.parsed = parsed
        self.principal = principal
        self.reowning = reowning
        self.mapping: dict[str, str] = {}
        self.written = False

    def lookup_ids(self) -> list[str]:
        ids = sorted(self.parsed.node_lines)
        if self.reowning:
            ids += [derived_id(node_id, self.principal) for node_id in ids]
        return ids

    def __call__(self, held: Ownership) -> Callable[[int], MemoryRows] | None:
        self.mapping = {node_id: self._id_for(node_id, held) for node_id in self.parsed.node_lines}
        if held.resuming:  # the ids present are the ones its first slices wrote
            self.written = True
            return self._rows
        present = [old for old, new in self.mapping.items() if held.ids.get(new)]
        if self.mapping and len(present) == len(self.mapping):
            return None
        if present:
            first = min(present, key=self.parsed.node_lines.__getitem__)
            raise StateConflict(
                f"line {self.parsed.node_lines[first]}: {len(present)} of this file's "
                f"{len(self.mapping)} records are already in {self.principal}'s memory "
                f"(e.g. {first}); a partial overlap is never merged: import into another "
                "principal (--as-principal) or delete the overlap first",
                line=self.parsed.node_lines[first],
                field="id",
                rule="partial_overlap",
            )
        if not self.mapping and held.projects.issuperset(_project_names(self.parsed)):
            return None
        self.written = True
        return self._rows

    def _id_for(self, node_id: str, held: Ownership) -> str:
        owned = held.ids.get(node_id)
        if owned is None or owned:
            return node_id
        line = self.parsed.node_lines[node_id]
        new = derived_id(node_id, self.principal)
        if not self.reowning or held.ids.get(new) is False:
            raise StateConflict(
                f"line {line}: id {node_id} belongs to another principal in this store; "
                "import with --as-principal to write the memory under new ids",
                line=line,
                field="id",
                rule="owned_elsewhere",
            )
        return new

    def _rows(self, base: int) -> MemoryRows:
        return build_rows(self.parsed, self.mapping, base)


def _props(
    kind: str, props: dict[str, JsonProp], line: int, mapping: dict[str, str], base: int
) -> Props:
    decoded = decode_props(props, line)
    for name in SEQ_PROPS.get(kind, ()):
        rank = decoded.get(name)
        if isinstance(rank, int):
            decoded[name] = base + rank
    for name in ID_PROPS.get(kind, ()):
        value = decoded.get(name)
        if isinstance(value, str):
            decoded[name] = mapping.get(value, value)
    return decoded


def _mapped(node_id: str | None, mapping: dict[str, str]) -> str | None:
    return None if node_id is None else mapping[node_id]


def _leveled(props: Props, texts: Sequence[str]) -> Props:
    """An imported node's props with its sensitivity level set.

    As exported (internal for a file from before levels existed), raised to secret
    when its text holds one, like any write.
    """
    declared = parse_sensitivity(str(props.get("sensitivity") or "internal"), "sensitivity")
    return {**props, "sensitivity": effective(declared, texts_of(props, texts)).value}


def build_rows(parsed: ParsedExport, mapping: dict[str, str], base: int) -> MemoryRows:
    """The file's records as store rows: ids mapped, ranks made seqs after ``base``."""
    rows = MemoryRows(principal_props=decode_props(parsed.header.principal_props, 1))
    for line, record in parsed.records:
        props = _props(record.kind, record.props, line, mapping, base)
        if isinstance(record, ProjectRecord):
            rows.projects.append(ProjectRow(record.name, props))
        elif isinstance(record, EpisodeRecord):
            props = _leveled(props, EPISODE_TEXTS)
            node = NodeRow(mapping[record.id], base + record.seq, props)
            rows.episodes.append(
                NodeRow(node.id, node.seq, node.props, _mapped(record.parent, mapping))
            )
        elif isinstance(record, BeliefRecord):
            props = _leveled(props, BELIEF_TEXTS)
            rows.beliefs.append(NodeRow(mapping[record.id], base + record.seq, props))
        elif isinstance(record, LinkRecord):
            rows.links.append(
                LinkRow(record.kind, mapping[record.source], mapping[record.target], props)
            )
        elif isinstance(record, RejectionRecord):
            belief = _mapped(record.belief, mapping)
            rows.rejections.append(NodeRow(mapping[record.id], None, props, belief))
        elif isinstance(record, TombstoneRecord):
            rows.tombstones.append(NodeRow(mapping[record.id], None, props))
        else:
            about = _mapped(record.about, mapping)
            rows.events.append(EventRow(base + record.seq, props, about, record.about_kind))
    _add_missing_projects(rows)
    return rows


def _add_missing_projects(rows: MemoryRows) -> None:
    """A project-filtered file may hold episodes of projects it has no record of."""
    named = {project.name for project in rows.projects}
    for episode in rows.episodes:
        name = str(episode.props["project"])
        if name not in named:
            named.add(name)
            created: Value = episode.props.get("recorded_at")
            rows.projects.append(ProjectRow(name, {"created_at": created}))


def _digested(
    lines: Iterable[str | bytes], update: Callable[[bytes], None]
) -> Iterator[str | bytes]:
    """The lines as given, each passed to ``update`` (a digest of the file: its key)."""
    for line in lines:
        update(line.encode() if isinstance(line, str) else line)
        yield line


def import_memory(
    db: Database,
    principal: str,
    lines: Iterable[str | bytes],
    as_principal: str | None,
    progress: Progress | None = None,
) -> ImportSummary:
    """Validates the whole file, then writes it for ``as_principal`` or ``principal``.

    Raises:
        InvalidInput: A line is bad (nothing is written), or the file is another
            principal's and ``as_principal`` was not given.
        StateConflict: An id belongs to another principal and the import does not
            re-own; or the store holds part of the file already.
    """
    digest = hashlib.sha256()
    parsed = parse_export(_digested(lines, digest.update))
    source = parsed.header.principal
    if as_principal is None and source != principal:
        raise problem(
            1,
            "principal",
            "principal",
            f"the file holds {source}'s memory, not {principal}'s: pass as_principal "
            f"(--as-principal {principal}) to re-own it",
        )
    target = as_principal or principal
    plan = _Plan(parsed, target, reowning=source != target)
    transfer_store.write_memory(
        db,
        target,
        hashlib.sha256(f"{target}\n{digest.hexdigest()}".encode()).hexdigest(),
        plan.lookup_ids(),
        _project_names(parsed),
        parsed.header.seqs,
        decode_props(parsed.header.principal_props, 1),
        plan,
        progress,
    )
    written: Counter[str] = Counter(r.kind for _, r in parsed.records if plan.written)
    return ImportSummary(
        principal=target,
        source_principal=source,
        records={kind: written.get(kind, 0) for kind in KINDS},
        already_present=not plan.written,
        new_ids=sum(1 for old, new in plan.mapping.items() if old != new) if plan.written else 0,
        seqs=parsed.header.seqs if plan.written else 0,
    )
