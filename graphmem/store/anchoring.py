"""Resolves a writer's anchor to a symbol key and hash in the project's code graph."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from neo4j import ManagedTransaction

from graphmem.content import split_key
from graphmem.errors import InvalidInput, NotFound
from graphmem.models import AnchorRef
from graphmem.store.database import run


@dataclass(frozen=True)
class AnchorRequest:
    """One belief's anchor to resolve, in the project it is stated for."""

    row: int | None
    project: str
    anchor: AnchorRef
    unverifiable: bool


def _where(row: int | None) -> str:
    return f"row {row}: " if row is not None else ""


def resolve_anchors(
    tx: ManagedTransaction, principal: str, requests: Sequence[AnchorRequest]
) -> list[tuple[str, str | None]]:
    """Returns (anchor_key, anchor_hash) per request, as of the current code graph.

    A key found in the graph gets its symbol's hash; a key the writer marked
    unverifiable is kept without a hash. A path and symbol must name exactly one
    symbol of that file.

    Raises:
        NotFound: The symbol is not in the project's code graph (and the anchor was not
            marked unverifiable).
        InvalidInput: A path and symbol match several symbols.
    """
    if not requests:
        return []
    lookups = []
    for request in requests:
        anchor = request.anchor
        path = split_key(anchor.key)[1] if anchor.key else anchor.path
        lookups.append(
            {"project": request.project, "path": path, "key": anchor.key, "symbol": anchor.symbol}
        )
    found = {
        record["i"]: [m for m in record["matches"] if m["key"] is not None]
        for record in run(tx, "anchor/find", principal=principal, anchors=lookups)
    }
    resolved: list[tuple[str, str | None]] = []
    for index, request in enumerate(requests):
        anchor, matches = request.anchor, found.get(index, [])
        if anchor.key is not None:
            exact = [m for m in matches if m["key"] == anchor.key]
            if exact:
                resolved.append((anchor.key, None if request.unverifiable else exact[0]["hash"]))
            elif request.unverifiable:
                resolved.append((anchor.key, None))
            else:
                raise NotFound(
                    f"{_where(request.row)}anchor.key: {anchor.key} is not in the code graph of "
                    f"project {request.project!r}; run `graphmem index`, or pass "
                    "anchor_unverifiable=True if it cannot be checked",
                    field="anchor.key",
                    rule="symbol_exists",
                    row=request.row,
                )
            continue
        by_qualname = [m for m in matches if m["qualname"] == anchor.symbol]
        candidates = by_qualname or matches
        if len(candidates) == 1:
            resolved.append((candidates[0]["key"], candidates[0]["hash"]))
        elif not candidates:
            raise NotFound(
                f"{_where(request.row)}anchor: no symbol {anchor.symbol!r} in {anchor.path} in the "
                f"code graph of project {request.project!r}; run `graphmem index` first",
                field="anchor.symbol",
                rule="symbol_exists",
                row=request.row,
            )
        else:
            keys = sorted(m["key"] for m in candidates)
            raise InvalidInput(
                f"{_where(request.row)}anchor: {anchor.symbol!r} names {len(keys)} symbols in "
                f"{anchor.path}; give one key: {', '.join(keys[:5])}",
                field="anchor.symbol",
                rule="ambiguous",
                row=request.row,
                candidates=keys,
            )
    return resolved
