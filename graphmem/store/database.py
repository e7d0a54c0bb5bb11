"""The Neo4j driver behind graphmem: explicit database, explicit read/write routing.

Reads go through :meth:`Database.read`: one auto-commit query routed to readers,
retried here on transient errors (a read changes nothing, so a retry is always safe).
A managed read transaction costs two more messages (BEGIN, COMMIT) per query: on this
project's reference machine 1.5 ms and 2.1 ms of server CPU for ``RETURN 1`` against
0.9 ms and 1.3 ms, and a recall makes four reads. Writes go through
:meth:`Database.write`, a managed transaction (``execute_write``) that is all-or-nothing
and retried by the driver on transient errors.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import date, datetime
from typing import Any, TypeVar

import neo4j
from neo4j import READ_ACCESS, GraphDatabase, ManagedTransaction
from neo4j.exceptions import (
    AuthError,
    ConfigurationError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)

from graphmem.errors import ConfigError, DatabaseError, DatabaseUnavailable
from graphmem.settings import ConnectionSettings
from graphmem.store.cypher import cypher

T = TypeVar("T")

RETRY_SECONDS = 30.0
"""How long a read (here) or a write (the driver) is retried on transient errors."""
_FIRST_RETRY_DELAY = 0.05
_MAX_RETRY_DELAY = 1.0

Record = neo4j.Record
"""One row a query returned (store/ only: it never leaves the package)."""
Scalar = str | int | float | bool | datetime | date | None
Value = Scalar | list[Scalar]
"""A stored property as plain Python (Neo4j's temporal types made native)."""


def native(value: Any) -> Value:
    """A property value with Neo4j's temporal types turned into Python's."""
    if isinstance(value, list):
        return [_native_scalar(item) for item in value]
    return _native_scalar(value)


def _native_scalar(value: Any) -> Scalar:
    to_native = getattr(value, "to_native", None)
    result: Scalar = to_native() if callable(to_native) else value
    return result


def plain(props: Mapping[str, Any]) -> dict[str, Value]:
    """A node's properties (or a map) as plain Python values."""
    return {key: native(value) for key, value in props.items()}


_HOW_TO_START = (
    "Start a local server with `graphmem neo4j start`, or set GRAPHMEM_NEO4J_URI and "
    "GRAPHMEM_NEO4J_PASSWORD to a running one."
)


@contextmanager
def translate_driver_errors(settings: ConnectionSettings) -> Iterator[None]:
    """Turns the driver's connection and authentication errors into graphmem errors."""
    try:
        yield
    except AuthError as error:
        raise DatabaseUnavailable(
            f"Neo4j at {settings.uri} refused the credentials of user {settings.user!r} "
            f"(from {settings.source}): {error.message}. Check GRAPHMEM_NEO4J_PASSWORD.",
            uri=settings.uri,
        ) from error
    except (ServiceUnavailable, SessionExpired, OSError) as error:
        raise DatabaseUnavailable(
            f"Neo4j is not reachable at {settings.uri} (from {settings.source}). {_HOW_TO_START}",
            uri=settings.uri,
        ) from error
    except Neo4jError as error:
        raise DatabaseError(
            f"Neo4j refused the statement: {error.message} ({error.code})",
            code=error.code,
        ) from error
    except DriverError as error:
        raise DatabaseError(f"Neo4j driver error: {error}") from error


def bolt_answers(uri: str, user: str, password: str) -> bool:
    """True when a Bolt server at ``uri`` accepts these credentials."""
    try:
        with GraphDatabase.driver(uri, auth=(user, password), connection_timeout=3.0) as driver:
            driver.verify_connectivity()
            return True
    except (DriverError, Neo4jError, AuthError, OSError):
        return False


def pages_by_seq(
    db: Database, query: str, principal: str, limit: int
) -> Iterator[list[neo4j.Record]]:
    """The principal's nodes a paged query reads, ``limit`` at a time, by creation seq.

    ``query`` takes ``$principal``, ``$after`` and ``$limit`` and returns rows with a
    ``seq``, oldest first; each page starts after the last seq of the one before.
    """
    after = 0
    while page := db.read(query, principal=principal, after=after, limit=limit):
        yield page
        after = int(page[-1]["seq"])


def drain(db: Database, query: str, counted: str, batch: int, **params: Any) -> int:
    """Runs a batched write until a batch comes back short; returns the total.

    ``query`` takes ``$limit`` (``batch``) and returns one row whose ``counted`` field
    says how many nodes that transaction changed.
    """
    total = 0
    while True:
        changed = db.write(lambda tx: int(run(tx, query, limit=batch, **params)[0][counted]))
        total += changed
        if changed < batch:
            return total


def run(tx: ManagedTransaction, query: str, /, **params: Any) -> list[neo4j.Record]:
    """Runs the named query inside a transaction and returns all its records."""
    return list(tx.run(cypher(query), params))


class Database:
    """One driver, bound to one database."""

    def __init__(self, settings: ConnectionSettings) -> None:
        self.settings = settings
        try:
            self._driver = GraphDatabase.driver(
                settings.uri,
                auth=(settings.user, settings.password),
                connection_timeout=10.0,
                max_transaction_retry_time=RETRY_SECONDS,
                notifications_min_severity="OFF",
            )
        except (ConfigurationError, ValueError, ImportError) as error:
            raise ConfigError(
                f"{settings.uri!r} (from {settings.source}) is not a Neo4j URI: use "
                "bolt://host:7687 or neo4j://host:7687.",
                field="uri",
                rule="neo4j_uri",
            ) from error

    def verify(self) -> None:
        """Checks that the server answers and accepts the credentials.

        Raises:
            DatabaseUnavailable: It does not.
        """
        with translate_driver_errors(self.settings):
            self._driver.verify_connectivity()
            self._driver.verify_authentication()

    def read(self, query: str, /, **params: Any) -> list[neo4j.Record]:
        """Runs the named read query, routed to readers, and returns its records.

        A transient failure (a leader switch, a dropped connection, a server briefly
        out of memory) is retried with a growing, jittered pause for up to
        ``RETRY_SECONDS``.
        """
        statement = cypher(query)
        deadline = time.monotonic() + RETRY_SECONDS
        delay = _FIRST_RETRY_DELAY
        with translate_driver_errors(self.settings):
            while True:
                try:
                    with self._driver.session(
                        database=self.settings.database, default_access_mode=READ_ACCESS
                    ) as session:
                        return list(session.run(statement, params))
                except (Neo4jError, DriverError) as error:
                    if not error.is_retryable() or time.monotonic() + delay > deadline:
                        raise
                time.sleep(delay * random.uniform(0.8, 1.2))  # concurrent readers spread out
                delay = min(delay * 2, _MAX_RETRY_DELAY)

    def write(self, work: Callable[[ManagedTransaction], T]) -> T:
        """Runs ``work`` in one managed write transaction and returns its result."""
        with (
            translate_driver_errors(self.settings),
            self._driver.session(database=self.settings.database) as session,
        ):
            return session.execute_write(work)

    def write_statement(self, query: str, /, **params: Any) -> list[neo4j.Record]:
        """Runs one named write query in a managed transaction of its own."""
        return self.write(lambda tx: run(tx, query, **params))

    def run_autocommit(self, statement: str, **params: Any) -> None:
        """Runs one statement in its own auto-commit transaction.

        Schema commands and ``CALL ... IN TRANSACTIONS`` need this; everything else uses
        :meth:`write`.
        """
        with (
            translate_driver_errors(self.settings),
            self._driver.session(database=self.settings.database) as session,
        ):
            session.run(statement, params).consume()

    def close(self) -> None:
        """Closes the driver and its connections."""
        self._driver.close()
