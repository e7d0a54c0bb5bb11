"""Access tokens of ``graphmem serve``: ``(:AccessToken)`` nodes keyed by the sha256.

A token's secret is never stored, only its sha256, so reading the database (or a
backup of it) gives no working token. The nodes sit outside memory: no recall,
listing or export reads them.
"""

from __future__ import annotations

from graphmem.errors import NotFound
from graphmem.models import AccessToken
from graphmem.store.database import Database, Record, plain, run


def _token(record: Record) -> AccessToken:
    return AccessToken.model_validate(plain(record["token"]))


def record_token(
    db: Database, token_id: str, principal: str, name: str | None, sha256: str
) -> AccessToken:
    """Stores a new token's digest for ``principal`` and returns its record."""
    records = db.write(
        lambda tx: run(
            tx, "token/create", id=token_id, principal=principal, name=name, sha256=sha256
        )
    )
    return _token(records[0])


def list_tokens(db: Database, principal: str | None = None) -> list[AccessToken]:
    """Every token (of one principal when given), oldest first, revoked ones included."""
    return [_token(record) for record in db.read("token/list", principal=principal)]


def revoke_token(db: Database, token_id: str) -> AccessToken:
    """Revokes a token at once; revoking it again changes nothing.

    Raises:
        NotFound: No token has this id.
    """
    records = db.write(lambda tx: run(tx, "token/revoke", id=token_id))
    if not records:
        raise NotFound(f"token {token_id} does not exist", field="token_id", rule="exists")
    return _token(records[0])


def principal_for(db: Database, sha256: str) -> str | None:
    """The principal a live token with this digest stands for, or None."""
    records = db.read("token/principal", sha256=sha256)
    return str(records[0]["principal"]) if records else None
