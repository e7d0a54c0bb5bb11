"""GraphMem: the facade agents use to remember, believe, recall and look things up.

It connects to Neo4j, applies the schema, and composes one object per capability
(:mod:`graphmem.capabilities`); each public method is that capability's method, with
its signature and docstring. It holds no query and no logic of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import update_wrapper
from pathlib import Path
from types import TracebackType
from typing import Concatenate, ParamSpec, TypeVar

from graphmem.capabilities.code import Code
from graphmem.capabilities.context import Context
from graphmem.capabilities.formation import Formation
from graphmem.capabilities.injection import Injections
from graphmem.capabilities.memory import Memory
from graphmem.capabilities.recall import Recall
from graphmem.capabilities.sessions import Sessions
from graphmem.capabilities.transfer import Transfer
from graphmem.capabilities.views import Views
from graphmem.recall.engine import RecallEngine
from graphmem.settings import (
    ConnectionSettings,
    ExpirySettings,
    FeedbackSettings,
    resolve_connection,
    resolve_data_dir,
    resolve_expiry,
    resolve_feedback,
    resolve_principal,
)
from graphmem.store.database import Database
from graphmem.store.migrations import apply_migrations, require_current_schema
from graphmem.vectors.minilm import default_embedder
from graphmem.vectors.protocol import Embedder

P = ParamSpec("P")
R = TypeVar("R")
C = TypeVar("C")


def _forward(
    part: Callable[[GraphMem], C], method: Callable[Concatenate[C, P], R]
) -> Callable[Concatenate[GraphMem, P], R]:
    """``method`` of the capability ``part`` picks out, as a method of the client."""

    def call(self: GraphMem, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return method(part(self), *args, **kwargs)

    update_wrapper(call, method)
    call.__qualname__ = f"GraphMem.{method.__name__}"
    return call


class GraphMem:
    """A principal's memory in Neo4j.

    Settings come from the arguments, then the environment (``GRAPHMEM_PRINCIPAL``,
    ``GRAPHMEM_NEO4J_URI`` ...), then the local server ``graphmem neo4j start`` runs.
    The principal is a hard filter on every read: nothing another principal wrote is
    ever returned. On first connect the schema migrations are applied (with
    ``migrate=False``, the schema is only checked to be current).

    Example:
        >>> with GraphMem(principal="alice") as mem:
        ...     episode = mem.remember({"project": "billing", "title": "Fix rounding"})
        ...     mem.believe("Invoices round half-even", project="billing",
        ...                 type="fact", evidence=[episode])

    Raises:
        ConfigError: A setting is missing (the message says which and how to set it).
        DatabaseUnavailable: Neo4j cannot be reached or refused the credentials.
        MigrationError: The schema cannot be applied, or (``migrate=False``) is behind.
    """

    def __init__(
        self,
        principal: str | None = None,
        *,
        uri: str | None = None,
        user: str | None = None,
        password: str | None = None,
        database: str | None = None,
        data_dir: str | Path | None = None,
        migrate: bool = True,
        embedder: Embedder | None = None,
    ) -> None:
        self.principal = resolve_principal(principal)
        self.settings: ConnectionSettings = resolve_connection(
            uri=uri, user=user, password=password, database=database, data_dir=data_dir
        )
        self.feedback: FeedbackSettings = resolve_feedback()
        """When misses queue formation hints and how long operator fields live
        (``GRAPHMEM_HINT_*``, ``GRAPHMEM_TRACE_OPERATOR_DAYS``)."""
        self.expiry: ExpirySettings = resolve_expiry()
        """When formed beliefs not confirmed again are demoted and retired
        (``GRAPHMEM_EXPIRY_*``)."""
        self._db = Database(self.settings)
        self._engine = RecallEngine(
            self._db,
            self.principal,
            (lambda: embedder) if embedder is not None else default_embedder,
            resolve_data_dir(data_dir) / "views",
            self.feedback,
        )
        context = Context(self._db, self.principal, self._engine, self.feedback, self.expiry)
        self._formation = Formation(context)
        self._memory = Memory(context, self._formation)
        self._recall = Recall(context)
        self._code = Code(context)
        self._views = Views(context)
        self._transfer = Transfer(context)
        self._injections = Injections(context)
        self._sessions = Sessions(
            context, resolve_data_dir(data_dir), self._memory, self._formation, self._views
        )
        try:
            self._db.verify()
            if migrate:
                apply_migrations(self._db)
            else:
                require_current_schema(self._db)
        except BaseException:
            self.close()
            raise

    # --- lifecycle ------------------------------------------------------------------

    def close(self) -> None:
        """Writes pending recall traces and closes the connection to Neo4j."""
        try:
            self._engine.close()
        finally:
            self._db.close()

    def __enter__(self) -> GraphMem:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # --- episodes and beliefs (Memory) -----------------------------------------

    remember = _forward(lambda mem: mem._memory, Memory.remember)
    remember_many = _forward(lambda mem: mem._memory, Memory.remember_many)
    get_episode = _forward(lambda mem: mem._memory, Memory.get_episode)
    believe = _forward(lambda mem: mem._memory, Memory.believe)
    believe_many = _forward(lambda mem: mem._memory, Memory.believe_many)
    supersede = _forward(lambda mem: mem._memory, Memory.supersede)
    retire = _forward(lambda mem: mem._memory, Memory.retire)
    correct = _forward(lambda mem: mem._memory, Memory.correct)
    forget = _forward(lambda mem: mem._memory, Memory.forget)
    get_belief = _forward(lambda mem: mem._memory, Memory.get_belief)
    history = _forward(lambda mem: mem._memory, Memory.history)

    # --- formation (Formation) -------------------------------------------------

    consolidate = _forward(lambda mem: mem._formation, Formation.consolidate)
    unconsolidated = _forward(lambda mem: mem._formation, Formation.unconsolidated)
    rederive = _forward(lambda mem: mem._formation, Formation.rederive)
    hints = _forward(lambda mem: mem._formation, Formation.hints)
    consolidate_hints = _forward(lambda mem: mem._formation, Formation.consolidate_hints)
    expire = _forward(lambda mem: mem._formation, Formation.expire)

    # --- recall (Recall) -------------------------------------------------------

    recall = _forward(lambda mem: mem._recall, Recall.recall)
    search_episodes = _forward(lambda mem: mem._recall, Recall.search_episodes)
    snapshot = _forward(lambda mem: mem._recall, Recall.snapshot)
    get_trace = _forward(lambda mem: mem._recall, Recall.get_trace)
    cite = _forward(lambda mem: mem._recall, Recall.cite)
    sweep_traces = _forward(lambda mem: mem._recall, Recall.sweep_traces)
    reindex = _forward(lambda mem: mem._recall, Recall.reindex)
    reembed = _forward(lambda mem: mem._recall, Recall.reembed)

    # --- code anchors (Code) ---------------------------------------------------

    index_code = _forward(lambda mem: mem._code, Code.index_code)
    anchor_statuses = _forward(lambda mem: mem._code, Code.anchor_statuses)
    anchor_status = _forward(lambda mem: mem._code, Code.anchor_status)

    # --- views across projects (Views) -----------------------------------------

    overview = _forward(lambda mem: mem._views, Views.overview)
    changes = _forward(lambda mem: mem._views, Views.changes)
    projects = _forward(lambda mem: mem._views, Views.projects)
    list_beliefs = _forward(lambda mem: mem._views, Views.list_beliefs)
    events = _forward(lambda mem: mem._views, Views.events)

    # --- export and import (Transfer) ------------------------------------------

    export = _forward(lambda mem: mem._transfer, Transfer.export)
    import_memory = _forward(lambda mem: mem._transfer, Transfer.import_memory)

    # --- captured sessions (Sessions) ------------------------------------------

    sessions = _forward(lambda mem: mem._sessions, Sessions.sessions)
    session = _forward(lambda mem: mem._sessions, Sessions.session)
    consolidate_session = _forward(lambda mem: mem._sessions, Sessions.consolidate_session)
    consolidate_sessions = _forward(lambda mem: mem._sessions, Sessions.consolidate_sessions)
    forget_session = _forward(lambda mem: mem._sessions, Sessions.forget_session)

    # --- context injection for agent hosts (Injections) -------------------------
    brief = _forward(lambda mem: mem._injections, Injections.brief)
    inject_for_prompt = _forward(lambda mem: mem._injections, Injections.inject_for_prompt)
    inject_for_command = _forward(lambda mem: mem._injections, Injections.inject_for_command)
    warm = _forward(lambda mem: mem._injections, Injections.warm)
