"""Items are data, never instructions (docs/data-safety.md): the injection scan at load.

Every item a recall surface returns is scanned as it is loaded, so a better scanner
applies to old memory too; a flagged item stays in its place, its text shown as
``[BLOCKED: reason]``. The stored text is never changed.
"""

from __future__ import annotations

from graphmem.trust.injection import scan


def placeholder(reason: str) -> str:
    """What a flagged item shows instead of its text."""
    return f"[BLOCKED: {reason}]"


def screen(text: str) -> str | None:
    """Why ``text`` must not reach an agent's context, or None when it may."""
    finding = scan(text)
    return None if finding is None else finding.reason.value
