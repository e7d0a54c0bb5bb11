"""Design §8's directions of dependency, held by walking every import in graphmem.

Module-level and function-level imports both count. A query runs only in store/: no
module outside it imports neo4j or the query loader, or calls ``read``/``write`` with a
query name.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "graphmem"
STORE_READERS = {"graphmem.store.database", "graphmem.store.codegraph"}
"""What anchors/ may use of store: the connection type and the code graph (never a
memory writer, rule 1)."""


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _imports() -> list[Import]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found += [Import(module, alias.name, node.lineno) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                target = _resolve(module, node, path.name == "__init__.py")
                found.append(Import(module, target, node.lineno))
                # `from graphmem.store import recall` imports graphmem.store.recall
                found += [
                    Import(module, f"{target}.{alias.name}", node.lineno) for alias in node.names
                ]
    return found


IMPORTS = _imports()


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _violations(
    importers: str, forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()
) -> list[str]:
    return sorted(
        f"{edge.importer}:{edge.line} imports {edge.imported}"
        for edge in IMPORTS
        if _inside(edge.importer, importers)
        and any(_inside(edge.imported, f) for f in forbidden)
        and not any(_inside(edge.importer, a) for a in allowed)
    )


def test_the_walk_sees_the_package() -> None:
    importers = {edge.importer for edge in IMPORTS}
    assert {"graphmem.client", "graphmem.store.recall", "graphmem.recall.engine"} <= importers


def test_only_store_imports_neo4j_or_the_query_loader() -> None:
    outside = sorted(
        f"{edge.importer}:{edge.line} imports {edge.imported}"
        for edge in IMPORTS
        if not _inside(edge.importer, "graphmem.store")
        and (_inside(edge.imported, "neo4j") or _inside(edge.imported, "graphmem.store.cypher"))
    )
    assert outside == []


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (of modules, classes,
    functions, and the attribute docstrings that follow an assignment)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for statement in body:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                found.add(id(statement.value))
    return found


def test_only_store_reads_the_query_files() -> None:
    """No module outside store/ names a .cypher (or Browser style) file or opens the
    queries/ data directory; docstrings may mention them."""
    readers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        if _inside(module, "graphmem.store"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        prose = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in prose
                and (".cypher" in node.value or ".grass" in node.value)
            ):
                readers.append(f"{module}:{node.lineno} names {node.value!r}")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "data_path"
                and any(isinstance(a, ast.Constant) and a.value == "queries" for a in node.args)
            ):
                readers.append(f"{module}:{node.lineno} opens the queries/ directory")
    assert readers == []


def test_only_store_runs_a_named_query() -> None:
    runs = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        if _inside(module, "graphmem.store"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"read", "write", "run_autocommit"}
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and "/" in node.args[0].value
            ):
                runs.append(f"{module}:{node.lineno} runs {node.args[0].value}")
    assert runs == []


@pytest.mark.parametrize(
    ("package", "shared"),
    [("graphmem.models", ("graphmem.limits", "graphmem.errors")), ("graphmem.errors", ())],
)
def test_models_and_errors_import_nothing_of_graphmem(
    package: str, shared: tuple[str, ...]
) -> None:
    """The domain model and the error tree import nothing of graphmem but themselves.

    The models take their field limits from graphmem.limits, the standard-library-only
    policy every reader of input shares (and which raises graphmem's errors).
    """
    outside = sorted(
        f"{edge.importer}:{edge.line} imports {edge.imported}"
        for edge in IMPORTS
        if _inside(edge.importer, package)
        and _inside(edge.imported, "graphmem")
        and not _inside(edge.imported, package)
        and not any(_inside(edge.imported, allowed) for allowed in shared)
    )
    assert any(_inside(edge.importer, package) for edge in IMPORTS)  # the walk saw it
    assert outside == []


def test_store_knows_no_logic_above_it() -> None:
    above = (
        "graphmem.recall",
        "graphmem.formation",
        "graphmem.anchors",
        "graphmem.vectors",
        "graphmem.client",
        "graphmem.cli",
        "graphmem.serve",
        "graphmem.bench",
    )
    assert _violations("graphmem.store", above) == []


def test_recall_never_imports_formation() -> None:
    assert _violations("graphmem.recall", ("graphmem.formation",)) == []


def test_anchors_never_import_a_memory_writer() -> None:
    used = {
        ".".join(edge.imported.split(".")[:3])
        for edge in IMPORTS
        if _inside(edge.importer, "graphmem.anchors") and _inside(edge.imported, "graphmem.store")
    }
    assert used <= STORE_READERS


def test_nothing_imports_cli_serve_or_bench() -> None:
    for package in ("graphmem.cli", "graphmem.serve", "graphmem.bench"):
        importers = sorted(
            f"{edge.importer}:{edge.line}"
            for edge in IMPORTS
            if _inside(edge.imported, package)
            and not _inside(edge.importer, package)
            and not _inside(edge.importer, "graphmem.cli")  # the CLI is the top
            and edge.importer != "graphmem.launcher"  # the console script, above the CLI
        )
        assert importers == [], package


def _one_edit_apart(a: str, b: str) -> bool:
    """Whether one insertion, deletion or substitution turns ``a`` into ``b``."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def test_no_two_top_level_names_are_one_letter_apart() -> None:
    names = sorted(
        path.stem if path.is_file() else path.name
        for path in PACKAGE.iterdir()
        if (path.is_dir() and (path / "__init__.py").exists())
        or (path.suffix == ".py" and path.stem != "__init__")
    )
    assert len(names) > 10
    close = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :] if _one_edit_apart(a, b)]
    assert close == []
    assert _one_edit_apart("serve", "server")  # the pair this test was written against


def test_only_the_client_composes_the_capabilities() -> None:
    """cli/, serve/ and the rest reach memory through GraphMem, never a part of it."""
    composers = ("graphmem.capabilities", "graphmem.client")
    assert _violations("graphmem", ("graphmem.capabilities",), composers) == []
