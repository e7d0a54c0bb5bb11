"""Which names a memory node mentions, from the properties it is stored with.

An episode's names come from its title, its free text and the paths it names; a
belief's from its statement and subject. An episode's item lists (observations and
the rest) are left out on purpose: forgetting a belief edits them (rule 7), and a
name must never outlive the text it came from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from graphmem.entities.extract import Name, names_of

MentionRow = dict[str, str]
"""One name as the write queries take it: ``{"name": ..., "kind": ...}``."""


def _text(props: Mapping[str, object], key: str) -> str | None:
    value = props.get(key)
    return value if isinstance(value, str) else None


def _rows(names: list[Name]) -> list[MentionRow]:
    return [{"name": name.name, "kind": name.kind.value} for name in names]


def episode_mentions(props: Mapping[str, object]) -> list[MentionRow]:
    """The names an episode with these properties mentions."""
    paths = props.get("paths")
    return _rows(
        names_of(
            [_text(props, "title"), _text(props, "text")],
            [path for path in paths if isinstance(path, str)] if isinstance(paths, list) else [],
        )
    )


def belief_mentions(props: Mapping[str, object]) -> list[MentionRow]:
    """The names a belief with these properties mentions."""
    return _rows(names_of([_text(props, "statement"), _text(props, "subject")]))


def batched(per_row: Sequence[list[MentionRow]]) -> tuple[list[MentionRow], list[list[int]]]:
    """A batch's names once each (sorted), and each row's names as positions in them.

    The write queries merge each entity of a batch once, then link the rows to it.
    """
    names = sorted({row["name"]: row for rows in per_row for row in rows}.values(), key=_by_name)
    position = {row["name"]: index for index, row in enumerate(names)}
    return names, [[position[row["name"]] for row in rows] for rows in per_row]


def _by_name(row: MentionRow) -> str:
    return row["name"]
