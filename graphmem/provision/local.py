"""The no-Docker route: a real Neo4j 5.26 server run from Maven Central jars.

``docker/neo4j-local/neo4j-local`` resolves the jars and runs the server's own entry
point with a generated config; this module drives it: port and Java checks, Browser's
graphmem overlay (:mod:`graphmem.provision.browser.overlay`), start in the background, wait for
Bolt, clean stop, status and logs.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections import deque
from pathlib import Path

from graphmem._resources import data_path
from graphmem.errors import ServerError, ServerStartFailed
from graphmem.provision.browser.commands import browser_principal
from graphmem.provision.browser.overlay import install_overlay
from graphmem.provision.info import (
    ServerInfo,
    ensure_password,
    loopback_bolt_uri,
    loopback_browser_url,
)
from graphmem.provision.java import find_java
from graphmem.provision.probe import ensure_ports_free, http_answers, wait_until
from graphmem.settings import DEFAULT_USER, PRIVATE_FILE_MODE, make_private_dir, write_private_text
from graphmem.store.database import bolt_answers

DEFAULT_BOLT_PORT = 7687
DEFAULT_HTTP_PORT = 7474
START_TIMEOUT_S = 180.0
STOP_TIMEOUT_S = 60.0
_MARKERS = ("CommunityEntryPoint", "neo4j-local")


def launcher() -> Path:
    """Returns the path of the ``neo4j-local`` launcher script."""
    return data_path("docker") / "neo4j-local" / "neo4j-local"


def _tail(path: Path, lines: int) -> str:
    if not path.is_file():
        return ""
    with path.open(encoding="utf-8", errors="replace") as handle:
        return "".join(deque(handle, maxlen=lines))


def _is_alive(pid: int) -> bool:
    try:
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
    except ChildProcessError:
        pass  # not our child: ask the kernel below
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


class LocalServer:
    """A Neo4j server whose files all live under ``home``.

    ``browser_principal`` is whose memory Browser opens on after login (default:
    GRAPHMEM_PRINCIPAL, else ``demo``).
    """

    def __init__(
        self,
        home: Path,
        bolt_port: int = DEFAULT_BOLT_PORT,
        http_port: int = DEFAULT_HTTP_PORT,
        *,
        browser_principal: str | None = None,
    ) -> None:
        self.home = home
        self.bolt_port = bolt_port
        self.http_port = http_port
        self.browser_principal = browser_principal
        state = self._read_state()
        if state is not None:  # a running server keeps the ports it was started with
            self.bolt_port, self.http_port = state["bolt_port"], state["http_port"]

    @property
    def password_file(self) -> Path:
        """The 0600 file holding the password of user ``neo4j``."""
        return self.home / "password"

    @property
    def state_file(self) -> Path:
        """Where the running server's pid and ports are recorded."""
        return self.home / "run" / "graphmem-server.json"

    @property
    def neo4j_log(self) -> Path:
        """The server's own log."""
        return self.home / "logs" / "neo4j.log"

    @property
    def console_log(self) -> Path:
        """Standard output and error of the launcher and the JVM."""
        return self.home / "logs" / "console.log"

    def _read_state(self) -> dict[str, int] | None:
        if not self.state_file.is_file():
            return None
        state: dict[str, int] = json.loads(self.state_file.read_text(encoding="utf-8"))
        return state

    def info(self, *, already_running: bool = False) -> ServerInfo:
        """Returns how to reach this server."""
        return ServerInfo.managed(
            "local",
            self.bolt_port,
            self.http_port,
            self.password_file,
            pid=self.pid(),
            already_running=already_running,
        )

    def pid(self) -> int | None:
        """The server's process id while it runs, else None."""
        state = self._read_state()
        if state is None:
            return None
        pid = state["pid"]
        cmdline = _cmdline(pid)
        if _is_alive(pid) and str(self.home) in cmdline and any(m in cmdline for m in _MARKERS):
            return pid
        return None

    def install(self) -> None:
        """Resolves the server jars from Maven Central (a no-op once done).

        Raises:
            ServerError: Maven is missing or the resolution failed.
        """
        make_private_dir(self.home)
        result = subprocess.run(
            ["bash", str(launcher()), "install", str(self.home)],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            raise ServerError(
                "Could not resolve the Neo4j server jars with Maven:\n"
                f"{result.stderr.strip()[-2000:]}\nCheck that `mvn` works and that Maven "
                "Central is reachable, or use Docker / an existing server.",
                rule="maven_resolve",
            )

    def start(self, timeout: float = START_TIMEOUT_S) -> ServerInfo:
        """Starts the server in the background; waits until Bolt and Browser answer.

        Browser is served with graphmem's style sheet and guide, which it loads on login.

        Returns:
            How to reach it; ``already_running`` when it was up before.

        Raises:
            PortInUse: The Bolt or HTTP port is taken by another process.
            JavaNotFound: No Java 17/21.
            ServerStartFailed: The server exited or did not answer within ``timeout``.
        """
        if self.pid() is not None:
            return self.info(already_running=True)
        ensure_ports_free({"Bolt": self.bolt_port, "HTTP": self.http_port})
        java = find_java()
        self.install()
        password = ensure_password(self.password_file)
        principal = browser_principal(self.browser_principal)
        on_login = install_overlay(self.home, self.http_port, principal)
        make_private_dir(self.console_log.parent)
        env = {
            **os.environ,
            "JAVA": str(java.path),
            "NEO4J_BOLT_PORT": str(self.bolt_port),
            "NEO4J_HTTP_PORT": str(self.http_port),
            "NEO4J_BROWSER_POST_CONNECT_CMD": on_login,
        }
        console_fd = os.open(
            self.console_log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, PRIVATE_FILE_MODE
        )
        with os.fdopen(console_fd, "ab") as console:
            process = subprocess.Popen(
                ["bash", str(launcher()), "console", str(self.home)],
                stdin=subprocess.DEVNULL,
                stdout=console,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        make_private_dir(self.state_file.parent)
        state = {"pid": process.pid, "bolt_port": self.bolt_port, "http_port": self.http_port}
        write_private_text(self.state_file, json.dumps(state) + "\n")

        uri = loopback_bolt_uri(self.bolt_port)
        browser = loopback_browser_url(self.http_port)

        def answers() -> bool:
            return bolt_answers(uri, DEFAULT_USER, password) and http_answers(browser)

        wait_until(lambda: process.poll() is not None or answers(), timeout)
        if process.poll() is not None or not answers():
            exit_code = process.poll()
            self.stop()
            what = (
                f"exited with code {exit_code}"
                if exit_code is not None
                else f"did not answer within {timeout:.0f}s"
            )
            logs = self.home / "logs"
            raise ServerStartFailed(
                f"Neo4j on {uri} {what}. Last lines of its logs ({logs}):\n"
                f"{_tail(self.console_log, 15)}{_tail(self.neo4j_log, 15)}"
                f"{_tail(logs / 'set-initial-password.log', 5)}",
                rule="bolt_answers",
            )
        return self.info()

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> bool:
        """Shuts the server down cleanly (SIGTERM, then SIGKILL after ``timeout``).

        Returns:
            True when a running server was stopped.
        """
        pid = self.pid()
        if pid is not None:
            os.killpg(pid, signal.SIGTERM)
            if not wait_until(lambda: not _is_alive(pid), timeout, interval=0.2):
                os.killpg(pid, signal.SIGKILL)
                wait_until(lambda: not _is_alive(pid), 10.0, interval=0.2)
        self.state_file.unlink(missing_ok=True)
        return pid is not None

    def dump(self, directory: Path) -> None:
        """Writes database ``neo4j`` to ``directory/neo4j.dump`` (the server must be stopped).

        Raises:
            ServerError: The server runs, or ``neo4j-admin database dump`` failed.
        """
        self._admin("dump", directory)

    def load(self, directory: Path) -> None:
        """Replaces database ``neo4j`` with ``directory/neo4j.dump`` (server stopped).

        Raises:
            ServerError: The server runs, or ``neo4j-admin database load`` failed.
        """
        self._admin("load", directory)

    def _admin(self, command: str, directory: Path) -> None:
        if self.pid() is not None:
            raise ServerError(
                f"Neo4j runs from {self.home}: stop it before a {command} "
                "(Community edition dumps and loads offline only)",
                rule="server_stopped",
            )
        env = {**os.environ, "JAVA": str(find_java().path)}
        result = subprocess.run(
            ["bash", str(launcher()), command, str(self.home), str(directory)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        if result.returncode != 0:
            raise ServerError(
                f"neo4j-admin database {command} failed (exit {result.returncode}):\n"
                f"{(result.stdout + result.stderr).strip()[-2000:]}",
                rule=f"database_{command}",
            )

    def logs(self, lines: int = 50) -> str:
        """Returns the last ``lines`` of the server's log."""
        return _tail(self.neo4j_log, lines) or _tail(self.console_log, lines)
