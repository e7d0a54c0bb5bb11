"""Reserved blocks of seqs: a bulk write never holds the clock, and readers skip nothing.

A bulk write reserves its seqs in a short transaction, then claims them in its own;
these tests hold such a transaction open by hand, between the claim and the commit,
which is where a bulk write spends its time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from neo4j import Transaction

from graphmem import ConcurrentWrite, GraphMem
from graphmem.store import clock
from graphmem.store.cypher import cypher
from graphmem.store.database import Database, run
from graphmem.store.events import view_events
from tests.integration.conftest import Graph

_BELIEF_EVENTS = ["belief.created"]


@pytest.fixture
def open_bulk(graph: Graph) -> Iterator[Callable[[clock.Reservation], Transaction]]:
    """Opens a transaction that claimed a reservation and wrote one event in its block."""
    sessions = []

    def begin(reservation: clock.Reservation) -> Transaction:
        session = graph.driver.session(database="neo4j")
        sessions.append(session)
        tx = session.begin_transaction()
        claimed = tx.run(
            cypher("clock/claim"),
            id=reservation.id,
            principal=reservation.principal,
            margin=clock.CLAIM_MARGIN_SECONDS,
        ).single()
        assert claimed is not None
        tx.run(
            "CREATE (:MemoryEvent {principal: $principal, seq: $seq, type: 'bulk.test', "
            "node_id: 'bulk', actor: 'test', at: datetime()})",
            principal=reservation.principal,
            seq=int(claimed["base"]) + 1,
        )
        return tx

    yield begin
    for session in sessions:
        session.close()


def _seqs(memory: GraphMem) -> list[int]:
    return [int(str(event["seq"])) for event in memory.events(since=0)]


def test_a_write_beside_an_uncommitted_bulk_write_neither_waits_nor_shows_early(
    memory: GraphMem, database: Database, open_bulk: Callable[[clock.Reservation], Transaction]
) -> None:
    before = memory.believe("Written before the bulk", project="p", type="fact")
    reservation = clock.reserve(database, memory.principal, 200)
    bulk = open_bulk(reservation)

    written: list[str] = []
    writer = threading.Thread(
        target=lambda: written.append(
            memory.believe("Written while the bulk is open", project="p", type="fact")
        )
    )
    writer.start()
    writer.join(timeout=30)
    assert written, "a single write waited for an uncommitted bulk transaction"

    # Readers stop below the open block: the later write is not shown before it.
    ids = [event["node_id"] for event in memory.events(since=0)]
    assert ids == [before]
    viewed = view_events(database, memory.principal, 0, _BELIEF_EVENTS, 100)
    assert [event.node_id for event in viewed] == [before]

    bulk.commit()
    events = memory.events(since=0)
    assert [event["node_id"] for event in events] == [before, "bulk", written[0]]
    assert _seqs(memory) == sorted(_seqs(memory))
    viewed = view_events(database, memory.principal, 0, _BELIEF_EVENTS, 100)
    assert [event.node_id for event in viewed] == [before, written[0]]


def test_a_given_back_reservation_releases_the_readers(
    memory: GraphMem, database: Database
) -> None:
    reservation = clock.reserve(database, memory.principal, 5)
    later = memory.believe("Written after the block", project="p", type="fact")
    assert memory.events(since=0) == []
    clock.release(database, reservation)
    assert [event["node_id"] for event in memory.events(since=0)] == [later]


def test_an_expired_reservation_is_ignored_by_readers_and_cannot_be_claimed(
    memory: GraphMem, database: Database, graph: Graph
) -> None:
    expired = clock.Reservation("expired-" + memory.principal, memory.principal, 3)
    database.write(
        lambda tx: run(
            tx, "clock/reserve", id=expired.id, principal=expired.principal, count=3, seconds=-1
        )
    )
    later = memory.believe("Written after an abandoned block", project="p", type="fact")
    assert [event["node_id"] for event in memory.events(since=0)] == [later]
    with pytest.raises(ConcurrentWrite, match="expired"):
        database.write(lambda tx: clock.claim(tx, expired, 3))

    clock.release(database, clock.reserve(database, memory.principal, 1))  # sweeps it
    assert graph.count(memory.principal, "Reservation") == 0


def test_a_bulk_write_reserves_its_block_and_leaves_no_reservation(
    memory: GraphMem, graph: Graph
) -> None:
    rows = clock.RESERVE_FROM + 20
    ids = memory.believe_many(
        [
            {"statement": f"Bulk fact number {i}", "project": "p", "type": "fact"}
            for i in range(rows)
        ]
    )
    events = memory.events(since=0, limit=1_000)
    assert [event["node_id"] for event in events] == ids
    seqs = _seqs(memory)
    assert seqs == sorted(seqs) and len(set(seqs)) == rows
    assert graph.count(memory.principal, "Reservation") == 0
    # the block was reserved apart from the stamp: later writes draw above it
    after = memory.believe("Written after the bulk", project="p", type="fact")
    assert memory.events(since=seqs[-1])[0]["node_id"] == after


def test_a_bulk_write_whose_block_keeps_expiring_fails_whole_and_gives_it_back(
    memory: GraphMem, graph: Graph, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A claim needs more lease left than any reservation has: both attempts fail.
    monkeypatch.setattr(clock, "CLAIM_MARGIN_SECONDS", 10 * clock.lease_seconds(10_000))
    with pytest.raises(ConcurrentWrite, match="make the call again"):
        memory.believe_many(
            [
                {"statement": f"Never written {i}", "project": "p", "type": "fact"}
                for i in range(clock.RESERVE_FROM)
            ]
        )
    assert graph.count(memory.principal, "Belief") == 0
    assert graph.count(memory.principal, "Reservation") == 0
