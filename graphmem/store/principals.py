"""A principal as a whole: its projects, and deleting everything it owns."""

from __future__ import annotations

from graphmem.store.cypher import cypher
from graphmem.store.database import Database


def list_projects(db: Database, principal: str, limit: int) -> list[str]:
    """The principal's project names (of its episodes and its beliefs' origins), sorted."""
    records = db.read("memory/projects", principal=principal, limit=limit)
    return [str(record["project"]) for record in records]


def delete_principal(db: Database, principal: str) -> None:
    """Deletes every node of ``principal`` (benchmarks and tests clean up with it).

    In batches of whole nodes, in two steps: first the nodes few others link to
    (beliefs, episodes, events...), then the hubs (projects, entities, files, symbols)
    and the principal, which have few relationships left by then. So no batch outgrows
    the server's transaction memory, and nothing is held for all the nodes at once.
    """
    db.run_autocommit(cypher("memory/delete_leaves"), principal=principal)
    db.run_autocommit(cypher("memory/delete_remaining"), principal=principal)
