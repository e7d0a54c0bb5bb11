"""Byte-stable rendering of recall results (docs/recall.md): no floats, no timestamps."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from graphmem.models import Conflict, EpisodeHit, RecallItem

SNIPPET_CHARS = 240


def _one_line(text: str) -> str:
    return " ".join(text.split())


def render_beliefs(
    query: str, project: str | None, items: Sequence[RecallItem], conflicts: Sequence[Conflict]
) -> str:
    """Renders recalled beliefs; the same inputs always give the same bytes."""
    where = f"project {project}" if project else "all projects"
    lines = [f'Recalled for "{_one_line(query)[:200]}" ({where}):']
    if not items:
        lines.append("(nothing relevant)")
    for position, item in enumerate(items, start=1):
        lines.append(
            f"{position}. [{item.type} | {item.confidence_band}] {_one_line(item.statement)}"
        )
        notes = [f"id {item.id}"]
        if project is not None and project not in item.origins:
            notes.append(f"from {', '.join(sorted(item.origins))}")
        if item.anchor_state not in ("unanchored", "verified"):
            notes.append(f"anchor {item.anchor_state}")
        if item.stale:
            notes.append("stale: not confirmed by an episode lately")
        lines.append("   " + "; ".join(notes))
    if conflicts:
        lines.append("Unresolved conflicts:")
        lines.extend(f"- {conflict.a} conflicts with {conflict.b}" for conflict in conflicts)
    return "\n".join(lines) + "\n"


def render_episodes(query: str, project: str | None, items: Sequence[EpisodeHit]) -> str:
    """Renders found episodes; the same inputs always give the same bytes."""
    where = f"project {project}" if project else "all projects"
    lines = [f'Episodes for "{_one_line(query)[:200]}" ({where}):']
    if not items:
        lines.append("(nothing relevant)")
    for position, item in enumerate(items, start=1):
        lines.append(f"{position}. [{item.kind} | {item.outcome}] {_one_line(item.title)}")
        if item.text:
            snippet = _one_line(item.text)
            cut = snippet[:SNIPPET_CHARS] + ("..." if len(snippet) > SNIPPET_CHARS else "")
            lines.append(f"   {cut}")
        lines.append(f"   id {item.id}; project {item.project}")
    return "\n".join(lines) + "\n"


def sha256_of(rendered: str) -> str:
    """The sha256 of the exact rendered bytes (UTF-8)."""
    return hashlib.sha256(rendered.encode("utf-8")).hexdigest()
