"""Connection, principal and data-directory settings.

Precedence for every setting: the explicit argument, then the environment, then (for
the connection only) the local server that ``graphmem neo4j start`` manages, then a
:class:`~graphmem.errors.ConfigError` that says what to set.
"""

from __future__ import annotations

import json
import math
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import IO, Any, Literal

from graphmem.content import is_name
from graphmem.errors import ConfigError, DatabaseUnavailable

DEFAULT_DATABASE = "neo4j"
DEFAULT_USER = "neo4j"
LOCAL_CONNECTION_FILE = Path("neo4j") / "connection.json"
"""Where the managed local server records how to reach it, under the data directory."""
_RECORD_FIELDS = frozenset({"route", "uri", "user", "password_file"})

_START_HINT = (
    "Start a local server with `graphmem neo4j start`, or point graphmem at one with "
    "GRAPHMEM_NEO4J_URI, GRAPHMEM_NEO4J_USER and GRAPHMEM_NEO4J_PASSWORD."
)


@dataclass(frozen=True)
class ConnectionSettings:
    """How to reach Neo4j, and where the values came from."""

    uri: str
    user: str
    password: str = field(repr=False)
    database: str = DEFAULT_DATABASE
    source: str = "argument"


def _env(*names: str) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


def resolve_data_dir(data_dir: str | Path | None = None) -> Path:
    """Returns graphmem's data directory (argument > GRAPHMEM_DATA_DIR > XDG default)."""
    if data_dir is not None:
        return Path(data_dir).expanduser()
    explicit = _env("GRAPHMEM_DATA_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = _env("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "graphmem"


def resolve_cache_dir() -> Path:
    """Returns graphmem's cache directory (XDG_CACHE_HOME/graphmem, else ~/.cache/graphmem).

    It holds what graphmem derives from its own installed files and can derive again
    (the embedding model rewritten for int8 kernels, where they run), shared by every
    data directory of the user; never memory.
    """
    xdg = _env("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "graphmem"


PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600
"""Everything graphmem creates under its data directory is its user's only."""


def make_private_dir(path: Path) -> Path:
    """Creates ``path`` and its missing parents with mode 0700; makes ``path`` itself 0700.

    Parents that already exist keep their mode (they may be the user's home).
    """
    missing = [directory for directory in (path, *path.parents) if not directory.exists()]
    for directory in reversed(missing):
        directory.mkdir(mode=PRIVATE_DIR_MODE, exist_ok=True)
    path.chmod(PRIVATE_DIR_MODE)
    return path


@contextmanager
def private_file(path: Path, mode: Literal["w", "wb"] = "w") -> Iterator[IO[Any]]:
    """Opens a file that replaces ``path`` atomically, mode 0600 whatever the umask.

    Every file graphmem writes that can hold memory or a secret goes through here. The
    file is created beside ``path`` with ``O_EXCL`` and mode 0600 (then ``fchmod``, as a
    umask can only take bits away), and renamed over ``path`` when the block ends
    without error; on an error it is removed and ``path`` is left as it was. The
    directory of ``path`` must exist and is not touched: graphmem makes its own with
    :func:`make_private_dir`, and a directory the user names stays as it is.

    A ``path`` that exists and is not a regular file (``/dev/null``, a FIFO) is written
    in place: it keeps nothing.

    Args:
        path: The file to write.
        mode: ``w`` for UTF-8 text with Unix line ends, ``wb`` for bytes.

    Yields:
        The open stream.

    Raises:
        OSError: The file cannot be created or written.
    """
    encoding = None if mode == "wb" else "utf-8"
    newline = None if mode == "wb" else "\n"
    if path.exists() and not path.is_file():
        with path.open(mode, encoding=encoding, newline=newline) as stream:
            yield stream
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
    try:
        os.fchmod(fd, PRIVATE_FILE_MODE)
        with os.fdopen(fd, mode, encoding=encoding, newline=newline) as stream:
            yield stream
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_private_text(path: Path, text: str) -> None:
    """Writes ``path`` atomically, mode 0600 (see :func:`private_file`)."""
    with private_file(path) as stream:
        stream.write(text)


def resolve_principal(principal: str | None = None) -> str:
    """Returns the principal (argument > GRAPHMEM_PRINCIPAL), checked against the name rule.

    Raises:
        ConfigError: No principal was given, or it is not a valid name.
    """
    value = principal if principal is not None else _env("GRAPHMEM_PRINCIPAL")
    if value is None:
        raise ConfigError(
            "No principal set: pass --principal (or principal=...) or set GRAPHMEM_PRINCIPAL.",
            field="principal",
            rule="required",
        )
    if not is_name(value):
        raise ConfigError(
            f"principal {value!r} is not a valid name: use letters, digits and ._:/@+- "
            "(at most 200 characters, starting with a letter or digit).",
            field="principal",
            rule="pattern",
        )
    return value


def read_connection_record(data_dir: Path) -> dict[str, Any] | None:
    """Returns the managed server's connection record, if one was written.

    Raises:
        ConfigError: The record exists but is not readable JSON of the expected shape.
    """
    record_file = data_dir / LOCAL_CONNECTION_FILE
    if not record_file.is_file():
        return None
    try:
        record = json.loads(record_file.read_text(encoding="utf-8"))
        if not isinstance(record, dict) or not set(record) >= _RECORD_FIELDS:
            raise ValueError("missing fields")
    except (OSError, ValueError) as error:
        raise ConfigError(
            f"{record_file} is damaged ({error}); run `graphmem neo4j start` to rewrite it.",
            field="connection_record",
            rule="valid_json",
        ) from None
    return record


def read_local_connection(data_dir: Path) -> ConnectionSettings | None:
    """Returns how to reach the managed local server, if it recorded itself."""
    record = read_connection_record(data_dir)
    if record is None:
        return None
    password_file = Path(record["password_file"])
    if not password_file.is_file():
        return None
    return ConnectionSettings(
        uri=record["uri"],
        user=record["user"],
        password=password_file.read_text(encoding="utf-8").strip(),
        database=DEFAULT_DATABASE,
        source=f"local server ({data_dir / LOCAL_CONNECTION_FILE})",
    )


def configured_connection(
    uri: str | None = None,
    user: str | None = None,
    password: str | None = None,
    database: str | None = None,
) -> ConnectionSettings | None:
    """Returns the server named by the arguments or the environment, or None.

    Args:
        uri: Bolt URI; else GRAPHMEM_NEO4J_URI or NEO4J_URI.
        user: User name; else GRAPHMEM_NEO4J_USER or NEO4J_USERNAME; else ``neo4j``.
        password: Password; else GRAPHMEM_NEO4J_PASSWORD or NEO4J_PASSWORD.
        database: Database; else GRAPHMEM_NEO4J_DATABASE or NEO4J_DATABASE; else ``neo4j``.

    Raises:
        ConfigError: A URI is set without a password.
    """
    source = "argument" if uri is not None else "environment"
    uri = uri if uri is not None else _env("GRAPHMEM_NEO4J_URI", "NEO4J_URI")
    if uri is None:
        return None
    if password is None:
        password = _env("GRAPHMEM_NEO4J_PASSWORD", "NEO4J_PASSWORD")
    if password is None:
        raise ConfigError(
            f"A Neo4j URI is set ({uri}) but no password: set GRAPHMEM_NEO4J_PASSWORD "
            "(or NEO4J_PASSWORD), or pass password=....",
            field="password",
            rule="required",
        )
    user = user or _env("GRAPHMEM_NEO4J_USER", "NEO4J_USERNAME") or DEFAULT_USER
    db = database or _env("GRAPHMEM_NEO4J_DATABASE", "NEO4J_DATABASE") or DEFAULT_DATABASE
    return ConnectionSettings(uri, user, password, db, source)


def resolve_connection(
    uri: str | None = None,
    user: str | None = None,
    password: str | None = None,
    database: str | None = None,
    data_dir: str | Path | None = None,
) -> ConnectionSettings:
    """Resolves how to reach Neo4j: arguments, then environment, then the local server.

    Args:
        uri: Bolt URI (see :func:`configured_connection` for the environment names).
        user: User name.
        password: Password.
        database: Database name.
        data_dir: graphmem's data directory, where a local server records itself.

    Raises:
        ConfigError: No server is configured, or a URI was given without a password.
    """
    configured = configured_connection(uri, user, password, database)
    if configured is not None:
        return configured
    local = read_local_connection(resolve_data_dir(data_dir))
    if local is None:
        raise DatabaseUnavailable(f"No Neo4j configured. {_START_HINT}", rule="configured")
    return local


# --- feedback: formation hints and trace retention ----------------------------------

HINT_MISSES = 3
"""Misses on one subject, within the window, that queue a formation hint."""
HINT_WINDOW_DAYS = 7.0
"""How far back misses count."""
HINT_TTL_DAYS = 30.0
"""How long a queued hint waits to be consumed before it expires."""
OPERATOR_WINDOW_DAYS = 30.0
"""How long a trace keeps its operator fields (the tuning window)."""

FEEDBACK_ENV = {
    "hint_misses": "GRAPHMEM_HINT_MISSES",
    "hint_window": "GRAPHMEM_HINT_WINDOW_DAYS",
    "hint_ttl": "GRAPHMEM_HINT_TTL_DAYS",
    "operator_window": "GRAPHMEM_TRACE_OPERATOR_DAYS",
}
"""The environment variable behind each feedback setting."""


@dataclass(frozen=True)
class FeedbackSettings:
    """When misses queue formation hints, and how long traces keep operator fields."""

    hint_misses: int = HINT_MISSES
    hint_window: timedelta = timedelta(days=HINT_WINDOW_DAYS)
    hint_ttl: timedelta = timedelta(days=HINT_TTL_DAYS)
    operator_window: timedelta = timedelta(days=OPERATOR_WINDOW_DAYS)


def _days(name: str, default: float) -> timedelta:
    raw = _env(name)
    if raw is None:
        return timedelta(days=default)
    try:
        days = float(raw)
    except ValueError:
        days = math.nan
    if not math.isfinite(days) or not 0 < days <= 36_500:
        raise ConfigError(
            f"{name}={raw!r} is not a number of days: use a positive number up to 36500 "
            f"(default {default:g}).",
            field=name,
            rule="days",
        )
    return timedelta(days=days)


def resolve_feedback() -> FeedbackSettings:
    """The feedback settings: the environment (see :data:`FEEDBACK_ENV`), else defaults.

    ``GRAPHMEM_HINT_MISSES`` is a count (1 to 1000); the others are days (fractions
    allowed). A hint lives at least as long as its window.

    Raises:
        ConfigError: A variable is set to something that is not a valid value.
    """
    raw = _env(FEEDBACK_ENV["hint_misses"])
    misses = HINT_MISSES
    if raw is not None:
        if not (raw.strip().isascii() and raw.strip().isdigit() and 1 <= int(raw) <= 1_000):
            raise ConfigError(
                f"{FEEDBACK_ENV['hint_misses']}={raw!r} is not a count: use a whole number "
                f"from 1 to 1000 (default {HINT_MISSES}).",
                field=FEEDBACK_ENV["hint_misses"],
                rule="count",
            )
        misses = int(raw)
    window = _days(FEEDBACK_ENV["hint_window"], HINT_WINDOW_DAYS)
    ttl = _days(FEEDBACK_ENV["hint_ttl"], HINT_TTL_DAYS)
    if ttl < window:
        raise ConfigError(
            f"{FEEDBACK_ENV['hint_ttl']} ({ttl.total_seconds() / 86_400:g} days) is shorter "
            f"than {FEEDBACK_ENV['hint_window']} ({window.total_seconds() / 86_400:g} days): "
            "a hint must live at least as long as the misses that queued it count.",
            field=FEEDBACK_ENV["hint_ttl"],
            rule="at_least_window",
        )
    operator = _days(FEEDBACK_ENV["operator_window"], OPERATOR_WINDOW_DAYS)
    return FeedbackSettings(misses, window, ttl, operator)


# --- expiry of formed beliefs ------------------------------------------------------

EXPIRY_STALE_DAYS = 90.0
"""A formed belief not observed again for this long is demoted (marked stale)."""
EXPIRY_RETIRE_DAYS = 90.0
"""A stale belief not observed again for this much longer is retired."""

EXPIRY_ENV = {
    "stale": "GRAPHMEM_EXPIRY_STALE_DAYS",
    "retire": "GRAPHMEM_EXPIRY_RETIRE_DAYS",
}
"""The environment variable behind each expiry window."""


@dataclass(frozen=True)
class ExpirySettings:
    """The two windows of expiry (docs/formation.md#expiry)."""

    stale: timedelta = timedelta(days=EXPIRY_STALE_DAYS)
    """From the last confirmation to demotion."""
    retire: timedelta = timedelta(days=EXPIRY_RETIRE_DAYS)
    """From demotion to retirement."""


def resolve_expiry() -> ExpirySettings:
    """The expiry windows: the environment (see :data:`EXPIRY_ENV`), else 90 and 90 days.

    Both are days (fractions allowed, at most 36500).

    Raises:
        ConfigError: A variable is set to something that is not a number of days.
    """
    return ExpirySettings(
        stale=_days(EXPIRY_ENV["stale"], EXPIRY_STALE_DAYS),
        retire=_days(EXPIRY_ENV["retire"], EXPIRY_RETIRE_DAYS),
    )


# --- context injection by hooks -----------------------------------------------------

INJECT_ENV = {
    "enabled": "GRAPHMEM_INJECT",
    "brief": "GRAPHMEM_INJECT_BRIEF_TOKENS",
    "prompt": "GRAPHMEM_INJECT_PROMPT_TOKENS",
}
"""The environment variable behind each injection setting (docs/capture.md#injection)."""


@dataclass(frozen=True)
class InjectionSettings:
    """What hooks inject into an agent's context, and how much."""

    enabled: bool = True
    """``GRAPHMEM_INJECT=off`` turns injection off (capture goes on)."""
    brief_tokens: int = 400
    """The session-start brief's budget, in the embedder's tokens."""
    prompt_tokens: int = 300
    """A prompt's budget."""


def resolve_injection() -> InjectionSettings:
    """The injection settings: the environment (see :data:`INJECT_ENV`), else defaults.

    Raises:
        ConfigError: A budget is not a whole number from 0 to 2000, or the switch is
            neither on nor off.
    """
    switch = (_env(INJECT_ENV["enabled"]) or "on").strip().lower()
    if switch not in ("on", "off", "1", "0", "true", "false"):
        raise ConfigError(
            f"{INJECT_ENV['enabled']}={switch!r}: use on or off.",
            field=INJECT_ENV["enabled"],
            rule="on_off",
        )
    return InjectionSettings(
        enabled=switch in ("on", "1", "true"),
        brief_tokens=_tokens(INJECT_ENV["brief"], 400),
        prompt_tokens=_tokens(INJECT_ENV["prompt"], 300),
    )


def _tokens(name: str, default: int) -> int:
    raw = _env(name)
    if raw is None:
        return default
    if not raw.strip().isdigit() or int(raw) > 2_000:
        raise ConfigError(
            f"{name}={raw!r} is not a token budget: use a whole number from 0 to 2000 "
            f"(default {default}).",
            field=name,
            rule="tokens",
        )
    return int(raw)


# --- the embedder's arithmetic --------------------------------------------------------

ARITHMETIC_ENV = "GRAPHMEM_EMBEDDER_ARITHMETIC"
"""How MiniLM multiplies its weights: ``auto`` (default), ``int8`` or ``float32``."""
EmbedderArithmetic = Literal["auto", "int8", "float32"]
_ARITHMETICS: dict[str, EmbedderArithmetic] = {"auto": "auto", "int8": "int8", "float32": "float32"}


def resolve_embedder_arithmetic() -> EmbedderArithmetic:
    """``GRAPHMEM_EMBEDDER_ARITHMETIC``, else ``auto``.

    ``auto`` lets the CPU decide (:func:`graphmem.vectors.int8_kernels.int8_pays`).

    Raises:
        ConfigError: The value is none of ``auto``, ``int8`` and ``float32``.
    """
    raw = _env(ARITHMETIC_ENV) or "auto"
    chosen = _ARITHMETICS.get(raw.strip().lower())
    if chosen is None:
        raise ConfigError(
            f"{ARITHMETIC_ENV}={raw!r}: use auto, int8 or float32.",
            field=ARITHMETIC_ENV,
            rule="enum",
        )
    return chosen
