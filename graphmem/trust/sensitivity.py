"""How sensitive an episode's or a belief's text is: four levels in a total order.

``public < internal < confidential < secret``; a node is ``internal`` unless its writer
says otherwise. Reads carry a ceiling and see only the levels at or below it
(:func:`levels_up_to` gives the values for a Cypher ``IN $levels`` filter). A write whose
text holds a secret (:func:`graphmem.trust.secrets.holds_secret`) is raised to
``secret`` whatever it declared (:func:`effective`); nothing ever lowers a level.
The levels themselves (:class:`~graphmem.models.Sensitivity`) live with the models.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from graphmem.errors import InvalidInput
from graphmem.models import DEFAULT_SENSITIVITY, Sensitivity
from graphmem.trust.secrets import holds_secret

_ORDER = tuple(Sensitivity)
EPISODE_TEXTS = (
    "title",
    "text",
    "observations",
    "inferences",
    "decisions",
    "failed_attempts",
    "unresolved",
)
"""The fields of an episode the secret finder reads: everything it says in words."""
BELIEF_TEXTS = ("statement", "subject")
"""The fields of a belief the secret finder reads."""
REDACTED = "[secret]"
"""What printed listings show in place of a secret node's text."""
_ALLOWED_WORDS = "public, internal, confidential or secret (least to most sensitive)"
_SHOWN_CHARS = 40
"""At most this much of a bad value is repeated in the error message."""


def parse_sensitivity(value: str, field: str) -> Sensitivity:
    """Reads a level from its value, exactly as written (``"secret"``, not ``"Secret"``).

    Args:
        value: The level's value.
        field: The input field it came from, named in the error.

    Returns:
        The level.

    Raises:
        InvalidInput: The value is not a level; ``details`` has ``field``,
            ``rule="enum"`` and ``allowed`` (the values, least sensitive first).
    """
    try:
        return Sensitivity(value)
    except ValueError:
        shown = repr(value)
        if len(shown) > _SHOWN_CHARS:
            shown = f"{shown[:_SHOWN_CHARS]}..."
        raise InvalidInput(
            f"{field}: {shown} is not a sensitivity level: use one of {_ALLOWED_WORDS}",
            field=field,
            rule="enum",
            allowed=[level.value for level in _ORDER],
        ) from None


def levels_up_to(ceiling: Sensitivity) -> list[str]:
    """The values of the levels at or below ``ceiling``, least sensitive first.

    Args:
        ceiling: The most sensitive level a read may see.

    Returns:
        For example ``["public", "internal"]`` for ``Sensitivity.INTERNAL``.
    """
    return [level.value for level in _ORDER[: ceiling.rank + 1]]


def texts_of(props: Mapping[str, object], fields: Sequence[str]) -> list[str]:
    """The texts of a node's ``fields``: a string as it is, a list item by item.

    Args:
        props: The node's properties (a write's fields, a stored or imported node's).
        fields: :data:`EPISODE_TEXTS` or :data:`BELIEF_TEXTS`.
    """
    texts: list[str] = []
    for name in fields:
        value = props.get(name)
        if isinstance(value, list | tuple):
            texts += [str(item) for item in value]
        elif value is not None:
            texts.append(str(value))
    return texts


def effective(declared: Sensitivity, texts: Iterable[str]) -> Sensitivity:
    """The level a write is stored at: its declared level, or secret if a text holds one.

    Args:
        declared: The level the writer gave (or :data:`DEFAULT_SENSITIVITY`).
        texts: The write's texts; scanning stops at the first secret, and no text is
            scanned when ``declared`` is already secret.

    Returns:
        ``Sensitivity.SECRET`` when any text holds a secret, otherwise ``declared``.
    """
    if declared == Sensitivity.SECRET or any(holds_secret(text) for text in texts):
        return Sensitivity.SECRET
    return declared


__all__ = [
    "BELIEF_TEXTS",
    "DEFAULT_SENSITIVITY",
    "EPISODE_TEXTS",
    "Sensitivity",
    "effective",
    "levels_up_to",
    "parse_sensitivity",
    "texts_of",
]
