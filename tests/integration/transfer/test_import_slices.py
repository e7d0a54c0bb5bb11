"""An import in slices against a real Neo4j: hidden until its end, undone, resumed."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest

from graphmem import GraphMem, StateConflict
from graphmem.store import transfer as transfer_store
from tests.integration.conftest import Graph
from tests.integration.transfer.test_transfer import export_text, footprint

MEMORY_LABELS = ("Belief", "Episode", "MemoryEvent", "Project", "ImportRun")


@pytest.fixture
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Statements of 2 rows, transactions of 4: a small file makes many slices."""
    monkeypatch.setattr(transfer_store, "BATCH_ROWS", 2)
    monkeypatch.setattr(transfer_store, "SLICE_ROWS", 4)


def exported(memory: GraphMem) -> str:
    """An export of 12 beliefs and 3 episodes in two projects."""
    memory.believe_many(
        [
            {
                "statement": f"Service {n} retries twice on a timeout",
                "project": f"p{n % 2}",
                "type": "fact",
                "subject": f"service {n}",
            }
            for n in range(12)
        ]
    )
    for n in range(3):
        memory.remember({"project": "p0", "title": f"deploy {n}", "text": "it went fine"})
    return export_text(memory)


def memory_nodes(graph: Graph, principal: str) -> dict[str, int]:
    return {label: graph.count(principal, label) for label in MEMORY_LABELS}


def source_and_target(make_memory: Callable[..., GraphMem]) -> tuple[GraphMem, str, GraphMem]:
    """A principal with memory, its export, and an empty principal to import it into."""
    source = make_memory()
    return source, exported(source), make_memory()


def assert_imported_whole(graph: Graph, source: GraphMem, target: GraphMem) -> None:
    """The target holds the source's memory once, and no import in progress."""
    expected = memory_nodes(graph, source.principal) | {"ImportRun": 0}
    assert memory_nodes(graph, target.principal) == expected


class Stop(Exception):
    """Stops an import from its progress callback."""


def stop_at(call: int) -> Callable[[int, int], None]:
    calls = 0

    def progress(done: int, total: int) -> None:
        nonlocal calls
        calls += 1
        if calls == call:
            raise Stop

    return progress


def killed_after_slice_3(
    source: GraphMem, text: str, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Imports ``text`` for ``target`` and stops it after 3 slices, undoing nothing."""
    with monkeypatch.context() as killed:  # no undo, as when the process is killed
        killed.setattr(transfer_store, "_undo_quietly", lambda *args: None)
        with pytest.raises(Stop):
            source.import_memory(io.StringIO(text), as_principal=target, progress=stop_at(4))


@pytest.mark.usefixtures("small_slices")
def test_readers_see_an_import_only_once_its_last_slice_commits(
    make_memory: Callable[..., GraphMem], graph: Graph
) -> None:
    source = make_memory()
    text = exported(source)
    reader = make_memory()
    seen: list[tuple[int, int, int]] = []  # (rows done, events committed, events read)

    def progress(done: int, total: int) -> None:
        committed = graph.count(reader.principal, "MemoryEvent")
        seen.append((done, committed, len(reader.events())))

    summary = source.import_memory(
        io.StringIO(text), as_principal=reader.principal, progress=progress
    )

    assert summary.records["belief"] == 12 and len(seen) > 5
    assert [done for done, _, _ in seen] == sorted({done for done, _, _ in seen})
    *during, (_, committed, read) = seen
    assert any(committed > 0 for _, committed, _ in during)  # events in slices of their own
    assert all(read == 0 for _, _, read in during)  # all behind the import's held block
    assert read == committed == graph.count(source.principal, "MemoryEvent")
    assert graph.count(reader.principal, "ImportRun") == 0
    hits = reader.recall("which service retries on a timeout", project="p0")
    assert any("retries twice" in item.statement for item in hits.items)


@pytest.mark.usefixtures("small_slices")
def test_a_failed_import_is_undone_and_can_be_made_again(
    make_memory: Callable[..., GraphMem], graph: Graph
) -> None:
    source, text, target = source_and_target(make_memory)

    with pytest.raises(Stop):
        source.import_memory(io.StringIO(text), as_principal=target.principal, progress=stop_at(5))

    assert set(memory_nodes(graph, target.principal).values()) == {0}
    summary = source.import_memory(io.StringIO(text), as_principal=target.principal)
    assert not summary.already_present
    vectors = {"Embedding", "EMBEDDED_AS"}  # the source's own, never exported
    expected = {k: v for k, v in footprint(graph, source.principal).items() if k not in vectors}
    assert footprint(graph, target.principal) == expected


@pytest.mark.usefixtures("small_slices")
def test_an_import_whose_process_died_is_finished_by_the_next(
    make_memory: Callable[..., GraphMem], graph: Graph, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, text, target = source_and_target(make_memory)
    killed_after_slice_3(source, text, target.principal, monkeypatch)
    part = memory_nodes(graph, target.principal)
    assert part["ImportRun"] == 1 and part["Belief"] + part["Episode"] > 0
    assert target.events() == []  # its block is still held

    summary = source.import_memory(io.StringIO(text), as_principal=target.principal)

    assert not summary.already_present and summary.records["belief"] == 12
    assert graph.count(target.principal, "ImportRun") == 0
    assert_imported_whole(graph, source, target)
    assert len(target.events()) == graph.count(source.principal, "MemoryEvent")


@pytest.mark.usefixtures("small_slices")
def test_an_import_whose_block_expired_is_undone_and_written_afresh(
    make_memory: Callable[..., GraphMem], graph: Graph, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, text, target = source_and_target(make_memory)
    killed_after_slice_3(source, text, target.principal, monkeypatch)
    old_base = graph.query(
        "MATCH (run:ImportRun) WHERE run.principal = $p RETURN run.base AS base",
        p=target.principal,
    )[0]["base"]
    graph.query(  # its lease ran out: readers pass the block from now on
        "MATCH (r:Reservation) WHERE r.principal = $p "
        "SET r.expires_at = datetime() - duration({seconds: 1})",
        p=target.principal,
    )

    source.import_memory(io.StringIO(text), as_principal=target.principal)

    seqs = graph.query(
        "MATCH (e:MemoryEvent) WHERE e.principal = $p RETURN min(e.seq) AS first",
        p=target.principal,
    )[0]
    assert seqs["first"] > old_base + graph.count(source.principal, "MemoryEvent")
    assert_imported_whole(graph, source, target)


@pytest.mark.usefixtures("small_slices")
def test_two_processes_on_one_import_write_it_once(
    make_memory: Callable[..., GraphMem], graph: Graph
) -> None:
    source, text, target = source_and_target(make_memory)
    other = make_memory()
    finished: list[bool] = []

    def progress(done: int, total: int) -> None:
        if not finished:  # a second process takes the same import over after slice 1
            finished.append(True)
            other.import_memory(io.StringIO(text), as_principal=target.principal)

    with pytest.raises(StateConflict) as raised:
        source.import_memory(io.StringIO(text), as_principal=target.principal, progress=progress)

    assert raised.value.details["rule"] == "import_running"
    assert_imported_whole(graph, source, target)
