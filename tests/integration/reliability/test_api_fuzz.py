"""Generated input to the Python client ends in a result or a GraphMemError, nothing else.

Issue 33: `import_memory()` raised RecursionError on a deeply nested line and TypeError
on a binary stream. Each example here calls the real client against the real database
with values a careless or hostile caller could pass: text with lone surrogates and
control characters, huge integers, deep nesting, and streams of text or of bytes.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import GraphMem, GraphMemError

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

any_text = st.text(st.characters(codec=None, categories=None), max_size=60)
"""Any code points, lone surrogates and control characters included."""

huge = st.integers(min_value=2**63, max_value=10**6000) | st.integers(max_value=-(2**63))

values = st.recursive(
    st.none() | st.booleans() | huge | st.integers() | st.floats() | any_text,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(any_text, children, max_size=3)
    ),
    max_leaves=12,
)


def _deep(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"a": value}
    return value


def _survives(call: Callable[[], object]) -> None:
    """The call returns or raises a GraphMemError; any other exception fails the test."""
    with contextlib.suppress(GraphMemError):
        call()


@FUZZ
@given(
    episode=st.fixed_dictionaries(
        {"project": st.just("shop"), "title": any_text, "kind": st.just("task")},
        optional={
            "text": any_text,
            "paths": st.lists(any_text, max_size=2),
            "n": values | st.integers(min_value=1, max_value=5_000).map(_deep),
        },
    )
)
def test_remember_any_episode(memory: GraphMem, episode: dict[str, Any]) -> None:
    _survives(lambda: memory.remember(episode))


@FUZZ
@given(statement=any_text, subject=any_text | st.none(), confidence=values)
def test_believe_any_text(
    memory: GraphMem, statement: str, subject: str | None, confidence: Any
) -> None:
    _survives(
        lambda: memory.believe(
            statement, type="fact", project="shop", subject=subject, confidence=confidence
        )
    )


@FUZZ
@given(query=any_text, k=huge | st.integers())
def test_recall_any_query(memory: GraphMem, query: str, k: int) -> None:
    _survives(lambda: memory.recall(query, project="shop", k=k))


@FUZZ
@given(
    document=st.one_of(
        st.binary(max_size=300),
        any_text.map(lambda text: text.encode("utf-8", "surrogatepass")),
        st.integers(min_value=1, max_value=150_000).map(lambda n: b"[" * n),
        st.integers(min_value=1, max_value=5_000).map(lambda n: b'{"a":' * n + b"0" + b"}" * n),
    ),
    as_text=st.booleans(),
)
def test_import_any_stream(memory: GraphMem, document: bytes, as_text: bool) -> None:
    header = b'{"format":"graphmem-export","version":1,"principal":"x"}\n'
    data = header + document
    stream: io.StringIO | io.BytesIO = (
        io.StringIO(data.decode("utf-8", "replace")) if as_text else io.BytesIO(data)
    )
    _survives(lambda: memory.import_memory(stream))
