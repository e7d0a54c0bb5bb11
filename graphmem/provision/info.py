"""What graphmem knows about the Neo4j server it manages."""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from graphmem.settings import (
    DEFAULT_USER,
    LOCAL_CONNECTION_FILE,
    PRIVATE_FILE_MODE,
    make_private_dir,
    write_private_text,
)


def loopback_bolt_uri(port: int) -> str:
    """The Bolt URI of a server graphmem runs, listening on ``port`` of 127.0.0.1."""
    return f"bolt://127.0.0.1:{port}"


def loopback_browser_url(port: int) -> str:
    """Where a server graphmem runs serves Browser, on HTTP ``port`` of 127.0.0.1."""
    return f"http://127.0.0.1:{port}/browser/"


@dataclass(frozen=True)
class ServerInfo:
    """How to reach a server, which route runs it, and whether it was already up."""

    route: str
    """``settings`` (an existing server), ``docker`` or ``local`` (the Maven jars)."""
    bolt_uri: str
    browser_url: str | None
    user: str = DEFAULT_USER
    password_file: Path | None = None
    pid: int | None = None
    already_running: bool = False

    @classmethod
    def managed(
        cls,
        route: str,
        bolt_port: int,
        http_port: int,
        password_file: Path,
        *,
        pid: int | None = None,
        already_running: bool = False,
    ) -> ServerInfo:
        """A server graphmem runs itself: on this machine's ports, as the default user.

        Args:
            route: ``docker`` or ``local``.
            bolt_port: Its Bolt port on 127.0.0.1.
            http_port: Its HTTP port on 127.0.0.1 (Browser).
            password_file: Where its password is kept.
            pid: Its process id, when graphmem started the process itself.
            already_running: Whether it was up before this call.
        """
        return cls(
            route=route,
            bolt_uri=loopback_bolt_uri(bolt_port),
            browser_url=loopback_browser_url(http_port),
            user=DEFAULT_USER,
            password_file=password_file,
            pid=pid,
            already_running=already_running,
        )

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-safe dict."""
        data = asdict(self)
        data["password_file"] = str(self.password_file) if self.password_file else None
        return data


def write_connection_record(data_dir: Path, info: ServerInfo) -> Path:
    """Records how to reach the managed server, for settings to find (mode 0600)."""
    path = data_dir / LOCAL_CONNECTION_FILE
    make_private_dir(path.parent)
    record = {
        "route": info.route,
        "uri": info.bolt_uri,
        "http_url": info.browser_url,
        "user": info.user,
        "password_file": str(info.password_file),
    }
    write_private_text(path, json.dumps(record, indent=2) + "\n")
    return path


def ensure_password(path: Path) -> str:
    """Returns the password kept in ``path``, generating it (mode 0600) if absent.

    Generated passwords are hex: a URL-safe token may start with ``-``, which
    ``neo4j-admin dbms set-initial-password`` takes for an option and refuses, leaving
    a fresh server that never starts (one run in 64).
    """
    if not path.is_file():
        make_private_dir(path.parent)
        # Never replaced (a second start must not change it): O_EXCL, not private_file.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
        os.fchmod(fd, PRIVATE_FILE_MODE)  # whatever the umask
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(secrets.token_hex(24) + "\n")
    return path.read_text(encoding="utf-8").strip()
