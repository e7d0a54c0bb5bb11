"""The export format, version 1: JSON Lines, one header line then one record a line.

Every line is a JSON object written with fixed field order, sorted ``props`` keys, no
spaces and no ASCII escaping, so the same memory always gives the same bytes. Seqs
are not the store's own (those are global to a store): every seq-valued field holds
the value's dense rank among the seqs the file names (1, 2, 3 ...), and an import
draws that many new seqs from the target store's clock, keeping the order.

``props`` hold a node's or link's stored properties as JSON values; a time is
``{"datetime": "<ISO 8601 with offset>"}``. The ids, seqs and principal of a record are
its own fields, never props: a record that names a principal is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic import ValidationError as PydanticValidationError

from graphmem import limits
from graphmem.errors import InvalidInput
from graphmem.models import Id, Name
from graphmem.store.database import Scalar
from graphmem.store.transfer import Props

FORMAT = "graphmem-export"
VERSION = 1
RESERVED_PROPS = frozenset({"id", "seq", "principal", "principal_key"})
"""Never props: a record's own fields, or re-derived from the importing principal
(``principal_key``: what stores before migration 015 held for full-text search)."""
SEQ_PROPS: dict[str, tuple[str, ...]] = {"belief": ("cited_seq",), "event": ("node_seq",)}
"""Props holding a seq (as a rank in the file), per record kind."""
ID_PROPS: dict[str, tuple[str, ...]] = {
    "event": ("node_id", "other_id", "episode_id", "similar_to")
}
"""Props holding a node id (mapped with the record ids when an import re-owns)."""
REQUIRED_PROPS: dict[str, tuple[str, ...]] = {
    "episode": ("project",),
    "belief": ("statement", "origins"),
    "tombstone": ("statement_sha256",),
    "event": ("type",),
}

JsonScalar = str | int | float | bool
JsonProp = JsonScalar | list[JsonScalar] | dict[str, str]
Rank = Annotated[int, Field(strict=True, ge=1)]


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Header(_Line):
    """Line 1: what the file is, whose memory, and how much of it."""

    format: Literal["graphmem-export"]
    version: Literal[1]
    graphmem: str
    principal: Name
    project: Name | None
    seqs: Annotated[int, Field(strict=True, ge=0)]
    counts: dict[str, Annotated[int, Field(strict=True, ge=0)]]
    principal_props: dict[str, JsonProp]


class ProjectRecord(_Line):
    """A project of the principal."""

    kind: Literal["project"]
    name: Name
    props: dict[str, JsonProp]


class EpisodeRecord(_Line):
    """An episode with every item and field; ``parent``: the episode it is PART_OF."""

    kind: Literal["episode"]
    id: Id
    seq: Rank
    parent: Id | None
    props: dict[str, JsonProp]


class BeliefRecord(_Line):
    """A belief in any state (live, superseded, retired), with every field."""

    kind: Literal["belief"]
    id: Id
    seq: Rank
    props: dict[str, JsonProp]


class LinkRecord(_Line):
    """DERIVED_FROM (belief → episode), SUPERSEDES or CONFLICTS_WITH (newer → older)."""

    kind: Literal["derived_from", "supersedes", "conflicts_with"]
    source: Id
    target: Id
    props: dict[str, JsonProp]


class RejectionRecord(_Line):
    """A correction; ``belief``: the belief it REJECTS, while that exists."""

    kind: Literal["rejection"]
    id: Id
    belief: Id | None
    props: dict[str, JsonProp]


class TombstoneRecord(_Line):
    """What a forgotten belief leaves: its content digest."""

    kind: Literal["tombstone"]
    id: Id
    props: dict[str, JsonProp]


class EventRecord(_Line):
    """A change-log event; ``about``: the belief or episode it is ABOUT, if any."""

    kind: Literal["event"]
    seq: Rank
    about: Id | None
    about_kind: Literal["belief", "episode"] | None
    props: dict[str, JsonProp]


Record = (
    ProjectRecord
    | EpisodeRecord
    | BeliefRecord
    | LinkRecord
    | RejectionRecord
    | TombstoneRecord
    | EventRecord
)
KINDS: tuple[str, ...] = (
    "project",
    "episode",
    "belief",
    "derived_from",
    "supersedes",
    "conflicts_with",
    "rejection",
    "tombstone",
    "event",
)
"""Every record kind, in the order the sections appear in a file."""
_RECORD: TypeAdapter[Record] = TypeAdapter(Annotated[Record, Field(discriminator="kind")])


def encode_props(props: Props) -> dict[str, JsonProp]:
    """Stored properties as JSON values (times tagged), keys sorted."""
    encoded: dict[str, JsonProp] = {}
    for name in sorted(props):
        value = props[name]
        if value is None:
            continue
        if isinstance(value, list):
            encoded[name] = [_scalar(name, item) for item in value]
        elif isinstance(value, datetime):
            encoded[name] = {"datetime": value.isoformat()}
        else:
            encoded[name] = _scalar(name, value)
    return encoded


def _scalar(name: str, value: Scalar) -> JsonScalar:
    if isinstance(value, str | int | float | bool):
        return value
    raise ValueError(f"property {name!r} holds a {type(value).__name__}, not exportable")


def decode_props(props: dict[str, JsonProp], line: int) -> Props:
    """JSON values as stored properties (tagged times back to datetimes).

    Raises:
        InvalidInput: A tagged value is not a time with an offset.
    """
    decoded: Props = {}
    for name, value in props.items():
        if isinstance(value, dict):
            decoded[name] = _datetime(value, line, f"props.{name}")
        elif isinstance(value, list):
            items: list[Scalar] = list(value)
            decoded[name] = items
        else:
            decoded[name] = value
    return decoded


def _datetime(value: dict[str, str], line: int, field: str) -> datetime:
    text = value.get("datetime")
    try:
        if set(value) != {"datetime"} or text is None:
            raise ValueError
        parsed = datetime.fromisoformat(text)
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise problem(line, field, "datetime", 'a time is {"datetime": "<ISO 8601 with offset>"}')
    return parsed


def problem(line: int, field: str, rule: str, message: str) -> InvalidInput:
    """The error for one bad line: it names the line and the field."""
    return InvalidInput(f"line {line}: {field}: {message}", line=line, field=field, rule=rule)


def _loads(text: str, line: int) -> dict[str, Any]:
    try:
        data = limits.loads(text, "line")
    except InvalidInput as error:
        field = str(error.field)
        where = field.removeprefix("line.") if field != "line" else field
        raise problem(line, where, str(error.rule), error.message.split(": ", 1)[-1]) from None
    if not isinstance(data, dict):
        raise problem(line, "line", "json", "a line is one JSON object")
    return data


def _validated(adapter: TypeAdapter[Any], data: dict[str, Any], line: int) -> Any:
    try:
        return adapter.validate_python(data)
    except PydanticValidationError as error:
        first = error.errors(include_url=False, include_input=False)[0]
        loc = [str(part) for part in first["loc"]]
        if not loc and str(first["type"]).startswith("union_tag"):
            loc = ["kind"]
        if len(loc) > 1 and loc[0] in KINDS:
            loc = loc[1:]  # the discriminator's branch is not a field
        raise problem(line, ".".join(loc) or "line", first["type"], first["msg"]) from None


_HEADER: TypeAdapter[Header] = TypeAdapter(Header)


def parse_header(text: str) -> Header:
    """Validates line 1.

    Raises:
        InvalidInput: Not a graphmem export of version 1, or a field is wrong.
    """
    data = _loads(text, 1)
    if data.get("format") != FORMAT:
        raise problem(1, "format", "format", f"not a {FORMAT} file")
    if data.get("version") != VERSION:
        raise problem(1, "version", "version", f"version {data.get('version')!r} is not {VERSION}")
    header: Header = _validated(_HEADER, data, 1)
    return header


def parse_record(text: str, line: int, seqs: int) -> Record:
    """Validates one record line (``seqs``: the header's count of ranks).

    Raises:
        InvalidInput: Naming the line and the field.
    """
    record: Record = _validated(_RECORD, _loads(text, line), line)
    for name in RESERVED_PROPS & set(record.props):
        raise problem(line, f"props.{name}", "reserved", "is a record field, never a prop")
    for name in REQUIRED_PROPS.get(record.kind, ()):
        if name not in record.props:
            raise problem(line, f"props.{name}", "missing", "Field required")
    ranks = [("seq", getattr(record, "seq", None))]
    ranks += [(f"props.{name}", record.props.get(name)) for name in SEQ_PROPS.get(record.kind, ())]
    for field, rank in ranks:
        if rank is not None and (not isinstance(rank, int) or not 1 <= rank <= seqs):
            raise problem(line, field, "rank", f"a seq rank from 1 to {seqs}")
    if isinstance(record, EventRecord) and (record.about is None) != (record.about_kind is None):
        raise problem(line, "about_kind", "about", "about and about_kind go together")
    return record


def dump_line(line: Header | Record) -> str:
    """One line's JSON, byte-stable (no newline)."""
    return json.dumps(line.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))


def numbered_lines(lines: Iterable[str | bytes]) -> Iterator[tuple[int, str]]:
    """The non-empty lines with their 1-based numbers (a trailing newline is fine).

    Lines read from a binary stream are decoded by the input-limits policy, so bytes that
    are not UTF-8 are refused naming the field that holds them.
    """
    for number, line in enumerate(lines, start=1):
        text = limits.decode(line) if isinstance(line, bytes) else line
        stripped = text.rstrip("\n").rstrip("\r")
        if stripped.strip():
            yield number, stripped
