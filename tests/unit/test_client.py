"""client.py is a facade: every public method is one capability's, forwarded as is."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from graphmem import AsyncGraphMem, GraphMem
from graphmem.capabilities.code import Code
from graphmem.capabilities.context import Capability
from graphmem.capabilities.formation import Formation
from graphmem.capabilities.injection import Injections
from graphmem.capabilities.memory import Memory
from graphmem.capabilities.recall import Recall
from graphmem.capabilities.sessions import Sessions
from graphmem.capabilities.transfer import Transfer
from graphmem.capabilities.views import Views

CAPABILITIES = (Memory, Formation, Recall, Code, Views, Transfer, Sessions, Injections)
LIFECYCLE = {"close"}


def _public_methods(cls: type) -> dict[str, object]:
    return {
        name: member
        for name, member in vars(cls).items()
        if not name.startswith("_") and callable(member)
    }


def test_every_public_method_of_the_client_is_a_capability_method() -> None:
    offered = _public_methods(GraphMem)
    forwarded = {name: method for name, method in offered.items() if name not in LIFECYCLE}
    owners: dict[str, type] = {}
    for name, method in forwarded.items():
        target = inspect.unwrap(method)  # type: ignore[arg-type]
        owner = next(cls for cls in CAPABILITIES if vars(cls).get(name) is target)
        owners[name] = owner
        assert inspect.signature(method) == inspect.signature(target)  # type: ignore[arg-type]
        assert method.__doc__ == target.__doc__ and method.__doc__
        assert method.__qualname__ == f"GraphMem.{name}"  # type: ignore[attr-defined]
    assert {cls.__name__ for cls in owners.values()} == {cls.__name__ for cls in CAPABILITIES}


def test_every_public_capability_method_is_offered_by_the_client() -> None:
    for cls in CAPABILITIES:
        assert issubclass(cls, Capability)
        for name, method in _public_methods(cls).items():
            assert inspect.unwrap(getattr(GraphMem, name)) is method, f"{cls.__name__}.{name}"


def test_the_async_client_offers_every_method_of_the_client() -> None:
    for name, method in _public_methods(GraphMem).items():
        if name in LIFECYCLE:
            assert hasattr(AsyncGraphMem, "aclose")
            continue
        awaitable = getattr(AsyncGraphMem, name)
        assert inspect.iscoroutinefunction(awaitable), name
        assert awaitable.__doc__ == method.__doc__


def test_the_client_module_holds_no_logic_of_its_own() -> None:
    """Its class defines only set-up and lifecycle; everything else is a forward."""
    path = Path(inspect.getfile(GraphMem))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    client = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GraphMem")
    defined = {n.name for n in client.body if isinstance(n, ast.FunctionDef)}
    assert defined == {"__init__", "close", "__enter__", "__exit__"}
    forwards = [
        n for n in client.body if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
    ]
    assert all(
        isinstance(n.value, ast.Call)
        and isinstance(n.value.func, ast.Name)
        and n.value.func.id == "_forward"
        for n in forwards
    )
    assert len(forwards) == len(_public_methods(GraphMem)) - len(LIFECYCLE)
