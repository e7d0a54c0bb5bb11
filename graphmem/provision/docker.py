"""The Docker route: ``docker/docker-compose.yml`` when a Docker engine answers."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

from graphmem._resources import data_path
from graphmem.errors import ServerStartFailed
from graphmem.provision.browser.commands import browser_principal, docker_post_connect_command
from graphmem.provision.info import ServerInfo, ensure_password, loopback_bolt_uri
from graphmem.provision.probe import ensure_ports_free, wait_until
from graphmem.settings import DEFAULT_USER
from graphmem.store.database import bolt_answers


def docker_engine_answers() -> bool:
    """True when a Docker client is installed and its engine answers."""
    if shutil.which("docker") is None:
        return False
    try:
        result = subprocess.run(
            ["docker", "info", "--format", "{{.ServerVersion}}"],
            capture_output=True,
            timeout=15,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


class DockerServer:
    """Neo4j in a compose project of its own per data directory (so its volume is too).

    The password lives under ``home``; the project is ``graphmem-`` + a digest of it.
    Browser there has no graphmem guide (the image's own Browser is served); on login it
    sets the principal and loads graphmem's style sheet inline, with telemetry off.
    """

    def __init__(self, home: Path, bolt_port: int, http_port: int) -> None:
        self.home = home
        self.bolt_port = bolt_port
        self.http_port = http_port
        digest = hashlib.sha256(str(home.resolve()).encode()).hexdigest()[:10]
        self.project_name = f"graphmem-{digest}"

    @property
    def password_file(self) -> Path:
        """The 0600 file holding the password of user ``neo4j``."""
        return self.home / "docker-password"

    def _compose(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {
            **os.environ,
            "NEO4J_PASSWORD": ensure_password(self.password_file),
            "GRAPHMEM_NEO4J_BOLT_PORT": str(self.bolt_port),
            "GRAPHMEM_NEO4J_HTTP_PORT": str(self.http_port),
            "GRAPHMEM_BROWSER_POST_CONNECT_CMD": docker_post_connect_command(browser_principal()),
        }
        compose_file = data_path("docker") / "docker-compose.yml"
        command = ["docker", "compose", "-p", self.project_name, "-f", str(compose_file), *args]
        return subprocess.run(command, capture_output=True, text=True, env=env, check=False)

    def running(self) -> bool:
        """True when the compose service runs."""
        result = self._compose("ps", "--status", "running", "-q", "neo4j")
        return result.returncode == 0 and bool(result.stdout.strip())

    def info(self, *, already_running: bool = False) -> ServerInfo:
        """Returns how to reach this server."""
        return ServerInfo.managed(
            "docker",
            self.bolt_port,
            self.http_port,
            self.password_file,
            already_running=already_running,
        )

    def start(self, timeout: float) -> ServerInfo:
        """Starts the service and waits until Bolt answers.

        Raises:
            PortInUse: A port is taken by another process.
            ServerStartFailed: compose failed or Bolt never answered.
        """
        if self.running():
            return self.info(already_running=True)
        ensure_ports_free({"Bolt": self.bolt_port, "HTTP": self.http_port})
        result = self._compose("up", "-d", "--wait", "--wait-timeout", str(int(timeout)))
        uri = loopback_bolt_uri(self.bolt_port)
        password = ensure_password(self.password_file)
        if result.returncode != 0 or not wait_until(
            lambda: bolt_answers(uri, DEFAULT_USER, password), timeout
        ):
            raise ServerStartFailed(
                f"docker compose could not start Neo4j:\n{result.stderr.strip()[-2000:]}",
                rule="docker_compose_up",
            )
        return self.info()

    def stop(self) -> bool:
        """Stops and removes the container; the data volume is kept."""
        was_running = self.running()
        self._compose("down")
        return was_running

    def logs(self, lines: int) -> str:
        """Returns the container's last log lines."""
        return self._compose("logs", "--no-color", "--tail", str(lines), "neo4j").stdout
