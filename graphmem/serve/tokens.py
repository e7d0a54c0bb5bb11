"""Bearer tokens for ``graphmem serve``: issued once, kept as a sha256, revocable.

A token stands for exactly one principal. The server looks its digest up on every
request, so a revocation holds from the next request on, in every server that shares
the database. Tokens live in Neo4j (``:AccessToken`` nodes) rather than in a file so
that several servers, on one machine or many, see the same set and the same
revocations, and a database backup carries them.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from graphmem.errors import InvalidInput
from graphmem.models import ID_PATTERN, AccessToken, TokenName
from graphmem.settings import resolve_principal
from graphmem.store import tokens as store
from graphmem.store.database import Database
from graphmem.store.ids import new_id
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


def create_token(db: Database, principal: str, name: str | None = None) -> IssuedToken:
    """Creates a token for ``principal``; the secret is returned here and never again.

    Raises:
        ConfigError: ``principal`` is not a valid name.
        InvalidInput: ``name`` breaks a rule.
    """
    checked = resolve_principal(principal)
    parse(_TokenRequest, {"name": name})
    secret = TOKEN_PREFIX + secrets.token_urlsafe(_SECRET_BYTES)
    record = store.record_token(db, new_id(), checked, name, token_digest(secret))
    return IssuedToken(record, secret)


def list_tokens(db: Database, principal: str | None = None) -> list[AccessToken]:
    """Every token (of one principal when given), oldest first."""
    return store.list_tokens(db, resolve_principal(principal) if principal else None)


def revoke_token(db: Database, token_id: str) -> AccessToken:
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
    return store.revoke_token(db, token_id)


def authenticate(db: Database, token: str) -> str | None:
    """The principal a presented token stands for, or None (unknown or revoked)."""
    if not token.startswith(TOKEN_PREFIX) or len(token) > _MAX_TOKEN_CHARS:
        return None
    # An index lookup by digest: a caller chooses the token, never the digest compared.
    return store.principal_for(db, token_digest(token))
