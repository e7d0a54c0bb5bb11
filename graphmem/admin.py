"""Admin: what an operator does to the database itself, for no one principal.

Applying the schema, issuing and revoking the bearer tokens ``graphmem serve`` checks
(docs/serving-agents.md), and deleting a principal's whole memory. The CLI and the HTTP server use
it; agents use :class:`~graphmem.GraphMem`.

Tokens stand for exactly one principal each and are kept in Neo4j as their sha256
only (``(:AccessToken)`` nodes), rather than in a file: every server on one database
then sees the same tokens and the same revocations at once, a database backup carries
them, and a copy of the database yields no working token.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from pydantic import BaseModel, ConfigDict

from graphmem.errors import InvalidInput
from graphmem.models import ID_PATTERN, AccessToken, TokenName
from graphmem.settings import ConnectionSettings, resolve_connection, resolve_principal
from graphmem.store import tokens
from graphmem.store.database import Database
from graphmem.store.ids import new_id
from graphmem.store.migrations import apply_migrations
from graphmem.store.principals import delete_principal
from graphmem.validation import parse

TOKEN_PREFIX = "gm_"
_SECRET_BYTES = 32
_MAX_TOKEN_CHARS = 200
"""Anything longer is not a graphmem token: refused before hashing."""


class _TokenRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: TokenName | None = None


def token_digest(token: str) -> str:
    """The sha256 of a token, as stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class IssuedToken:
    """A token just created: its record, and the secret shown this once."""

    record: AccessToken
    secret: str = field(repr=False)


class Admin:
    """The database's operator: schema, tokens, principals.

    Connection settings resolve as for :class:`~graphmem.GraphMem` (argument, then
    environment, then the local server); the schema is applied on connect.

    Raises:
        ConfigError: A setting is missing or malformed.
        DatabaseUnavailable: Neo4j cannot be reached or refused the credentials.
    """

    def __init__(
        self,
        *,
        uri: str | None = None,
        user: str | None = None,
        password: str | None = None,
        database: str | None = None,
        data_dir: str | Path | None = None,
        migrate: bool = True,
    ) -> None:
        self.settings: ConnectionSettings = resolve_connection(
            uri=uri, user=user, password=password, database=database, data_dir=data_dir
        )
        self._db = Database(self.settings)
        self.applied: list[str] = []
        """The migrations this connection applied (empty: the schema was current)."""
        try:
            self._db.verify()
            if migrate:
                self.applied = apply_migrations(self._db)
        except BaseException:
            self._db.close()
            raise

    def close(self) -> None:
        """Closes the connection."""
        self._db.close()

    def __enter__(self) -> Admin:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # --- tokens ------------------------------------------------------------------

    def create_token(self, principal: str, name: str | None = None) -> IssuedToken:
        """Creates a token for ``principal``; the secret is returned here and never again.

        Raises:
            ConfigError: ``principal`` is not a valid name.
            InvalidInput: ``name`` breaks a rule.
        """
        checked = resolve_principal(principal)
        parse(_TokenRequest, {"name": name})
        secret = TOKEN_PREFIX + secrets.token_urlsafe(_SECRET_BYTES)
        record = tokens.record_token(self._db, new_id(), checked, name, token_digest(secret))
        return IssuedToken(record, secret)

    def list_tokens(self, principal: str | None = None) -> list[AccessToken]:
        """Every token (of one principal when given), oldest first, revoked included."""
        return tokens.list_tokens(self._db, resolve_principal(principal) if principal else None)

    def revoke_token(self, token_id: str) -> AccessToken:
        """Revokes a token; the next request that carries it gets 401.

        Raises:
            InvalidInput: ``token_id`` is not a graphmem id.
            NotFound: No token has this id.
        """
        if not re.fullmatch(ID_PATTERN, token_id):
            raise InvalidInput(
                f"token_id: {token_id!r} is not a token id (a lowercase UUID)",
                field="token_id",
                rule="id",
            )
        return tokens.revoke_token(self._db, token_id)

    def principal_of_token(self, token: str) -> str | None:
        """The principal a presented token stands for, or None (unknown or revoked)."""
        if not token.startswith(TOKEN_PREFIX) or len(token) > _MAX_TOKEN_CHARS:
            return None
        # An index lookup by digest: a caller chooses the token, never the digest compared.
        return tokens.principal_for(self._db, token_digest(token))

    # --- principals --------------------------------------------------------------

    def delete_principal(self, principal: str) -> None:
        """Deletes every node of one principal: its whole memory, code graph and tokens.

        Its derived views under a data directory are the caller's to remove.
        """
        delete_principal(self._db, resolve_principal(principal))
