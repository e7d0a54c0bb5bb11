"""The graphmem exception hierarchy, grouped by cause.

Every error graphmem raises on purpose is a :class:`GraphMemError`. Each carries a
human-readable message that says what to do, structured ``details`` (a plain dict of
JSON-safe values) for programs, and the CLI's exit code for its cause::

    GraphMemError
    ├── InvalidInput             1  a value breaks a rule; names the field, rule and row
    ├── NotFound                 4  an id that does not exist for this principal
    ├── WriteConflict               the write does not fit the memory as it is now
    │   ├── StateConflict        5  not allowed in the node's current state (already
    │   │                           superseded, retired...): retrying gives the same
    │   ├── ConcurrentWrite      6  other writers changed what it rests on: retry it
    │   └── IdempotencyConflict 10  the idempotency key names an earlier write with
    │                               another payload: use a new key for a new write
    ├── ConfigError              7  settings missing or malformed (what to set, where)
    ├── ClientClosed             9  the client was closed; open a new one
    ├── DatabaseUnavailable      3  Neo4j cannot be reached or refused the credentials
    ├── DatabaseError            3  Neo4j refused a statement (e.g. no such database)
    ├── MigrationError           3  the schema migrations cannot be applied
    └── ServerError              8  the local Neo4j server could not be managed
        ├── JavaNotFound            no usable Java 17/21 for the no-Docker route
        ├── PortInUse               Bolt or HTTP port taken by another process
        └── ServerStartFailed       the server process exited or never answered

(2 is typer's own code for usage errors.) ``retryable`` says whether the same call
may succeed when simply made again.
"""

from __future__ import annotations

from typing import Any


class GraphMemError(Exception):
    """Base class of every error graphmem raises on purpose.

    Attributes:
        message: What went wrong and what to do about it.
        details: Structured, JSON-safe facts about the error (field, rule, row, ...).
        exit_code: The CLI's exit code for this cause.
        retryable: Whether making the same call again may succeed.
    """

    exit_code = 1
    retryable = False

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = {k: v for k, v in details.items() if v is not None}

    def to_dict(self) -> dict[str, Any]:
        """Returns the error as a JSON-safe object: its type, message and details."""
        return {
            "type": type(self).__name__,
            "message": self.message,
            "retryable": self.retryable,
            **self.details,
        }


class _Located(GraphMemError):
    """An error about one input: ``details`` names ``field``, ``rule`` and ``row``."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        rule: str | None = None,
        row: int | None = None,
        **details: Any,
    ) -> None:
        super().__init__(message, field=field, rule=rule, row=row, **details)
        self.field = field
        self.rule = rule
        self.row = row


class InvalidInput(_Located):
    """Input broke a rule. ``details`` names ``field``, ``rule`` and, in batches, ``row``."""

    exit_code = 1


class NotFound(_Located):
    """An id that does not exist for the client's principal."""

    exit_code = 4


class WriteConflict(_Located):
    """The write does not fit the memory as it is now."""


class StateConflict(WriteConflict):
    """The write is not allowed in the node's current state (e.g. already superseded)."""

    exit_code = 5


class ConcurrentWrite(WriteConflict):
    """Concurrent writers kept changing what the write rests on; make the call again."""

    exit_code = 6
    retryable = True


class IdempotencyConflict(WriteConflict):
    """The idempotency key was used before by a write with another payload.

    ``details`` names ``field`` (``idempotency_key``), ``rule`` (``same_payload``), the
    ``key``, the ``existing_id`` written under it (absent when the earlier use is a
    row of the same batch) and, in batches, the ``row``. Retrying gives the same.
    """

    exit_code = 10


class ConfigError(GraphMemError):
    """A required setting is missing or malformed."""

    exit_code = 7


class ClientClosed(GraphMemError):
    """A closed client was used; open a new one."""

    exit_code = 9


class DatabaseUnavailable(GraphMemError):
    """Neo4j cannot be reached, or it refused the credentials."""

    exit_code = 3
    retryable = True


class DatabaseError(GraphMemError):
    """Neo4j refused a statement for a reason other than reachability."""

    exit_code = 3


class MigrationError(GraphMemError):
    """A schema migration could not be applied, or an applied one was edited."""

    exit_code = 3


class ServerError(GraphMemError):
    """The local Neo4j server could not be started, stopped or inspected."""

    exit_code = 8


class JavaNotFound(ServerError):
    """No Java 17 or 21 runtime was found for the no-Docker route."""


class PortInUse(ServerError):
    """The Bolt or HTTP port is already taken by another process."""


class ServerStartFailed(ServerError):
    """The server process exited early or never answered on Bolt."""
