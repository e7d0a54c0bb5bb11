"""The graphmem exception hierarchy.

Every error graphmem raises on purpose is a :class:`GraphMemError`. Each carries a
human-readable message that says what to do, and structured ``details`` (a plain
dict of JSON-safe values) for programs::

    GraphMemError
    ├── ConfigError              settings missing or malformed (what to set, and where)
    ├── InvalidInput             a value breaks a rule; names the field, rule and row
    │   ├── NotFound             an id that does not exist for this principal
    │   └── StateConflict        the write is not allowed in the node's current state
    ├── DatabaseUnavailable      Neo4j cannot be reached, is not configured, or refused
    │                            the credentials
    ├── DatabaseError            Neo4j refused a statement (e.g. no such database)
    ├── MigrationError           the schema migrations cannot be applied
    └── ServerError              the local Neo4j server could not be managed
        ├── JavaNotFound         no usable Java 17/21 for the no-Docker route
        ├── PortInUse            Bolt or HTTP port taken by another process
        └── ServerStartFailed    the server process exited or never answered

The CLI maps them to exit codes: ``DatabaseUnavailable`` and ``DatabaseError`` → 3,
every other ``GraphMemError`` → 1 (typer's usage errors are 2).
"""

from __future__ import annotations

from typing import Any


class GraphMemError(Exception):
    """Base class of every error graphmem raises on purpose.

    Attributes:
        message: What went wrong and what to do about it.
        details: Structured, JSON-safe facts about the error (field, rule, row, ...).
    """

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = {k: v for k, v in details.items() if v is not None}

    def to_dict(self) -> dict[str, Any]:
        """Returns the error as a JSON-safe object: its type, message and details."""
        return {"type": type(self).__name__, "message": self.message, **self.details}


class ConfigError(GraphMemError):
    """A required setting is missing or malformed."""


class InvalidInput(GraphMemError):
    """Input broke a rule. ``details`` names ``field``, ``rule`` and, in batches, ``row``."""

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


class NotFound(InvalidInput):
    """An id that does not exist for the client's principal."""


class StateConflict(InvalidInput):
    """The write is not allowed in the node's current state (e.g. already superseded)."""


class DatabaseUnavailable(GraphMemError):
    """Neo4j cannot be reached, or it refused the credentials."""


class DatabaseError(GraphMemError):
    """Neo4j refused a statement for a reason other than reachability."""


class MigrationError(GraphMemError):
    """A schema migration could not be applied, or an applied one was edited."""


class ServerError(GraphMemError):
    """The local Neo4j server could not be started, stopped or inspected."""


class JavaNotFound(ServerError):
    """No Java 17 or 21 runtime was found for the no-Docker route."""


class PortInUse(ServerError):
    """The Bolt or HTTP port is already taken by another process."""


class ServerStartFailed(ServerError):
    """The server process exited early or never answered on Bolt."""
