"""Where a doc's blocks run: a fresh directory with its own HOME and data directory,
and one shell state carried from block to block, as in a reader's terminal."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from graphmem.provision.probe import free_port, port_is_free, wait_until
from graphmem.settings import ConnectionSettings
from tests.integration.docs.markdown import REPO, Block
from tests.integration.serve.conftest import INITIALIZE

FIXTURES = REPO / "tests" / "data" / "docs"
BLOCK_TIMEOUT_S = 600.0
TRACEBACK = "Traceback (most recent call last)"

# Runs one block in the shell state the blocks before it left: their variables,
# exported or not, their functions and their working directory. On success the state
# is saved for the next block. Python blocks run under the same state.
_WRAPPER = r"""
__docs_state=$1 __docs_block=$2 __docs_python=$3
if [[ -s $__docs_state ]]; then source "$__docs_state"; fi
__docs_save() {
  local __docs_name
  {
    for __docs_name in $(compgen -v); do
      case $__docs_name in
        BASH*|COMP*|DIRSTACK|EPOCH*|EUID|FUNCNAME|GROUPS|HIST*|HOSTNAME|HOSTTYPE|IFS|\
        LINENO|MACHTYPE|OLDPWD|OPTERR|OPTIND|OSTYPE|PIPESTATUS|PPID|PS4|PWD|RANDOM|\
        SECONDS|SHELLOPTS|SHLVL|SRANDOM|UID|_|__docs_*) continue ;;
      esac
      [[ ${!__docs_name@a} == *r* ]] && continue
      declare -p "$__docs_name" 2>/dev/null || true
    done
    declare -f | grep -v '^declare -fx' || true
    printf 'cd -- %q\n' "$PWD"
  } > "$__docs_state.new"
  mv "$__docs_state.new" "$__docs_state"
}
set -euo pipefail
if [[ $__docs_block == *.py ]]; then
  "$__docs_python" "$__docs_block"
else
  source "$__docs_block"
fi
__docs_save
"""


@dataclass
class Outcome:
    """How a block ended."""

    code: int
    stdout: str
    stderr: str

    def report(self, block: Block, expected: int) -> str:
        return (
            f"{block.where}: {block.language} block exited {self.code}, expected {expected}"
            f"\n--- block\n{block.text}--- stdout\n{self.stdout}--- stderr\n{self.stderr}"
        )


@dataclass
class Sandbox:
    """One doc's working directory, environment and shell state."""

    root: Path
    env: dict[str, str]
    managed: bool
    log: list[str] = field(default_factory=list)
    started: float = 0.0
    """When the block running now started (time.monotonic)."""

    @classmethod
    def create(cls, root: Path, settings: ConnectionSettings | None) -> Sandbox:
        """A fresh sandbox under ``root``: the test server's settings, or (None) free
        ports for a server of the doc's own."""
        work = root / "work"
        home = root / "home"
        for directory in (work, home, root / "state"):
            directory.mkdir(parents=True)
        for fixture in FIXTURES.iterdir():
            if fixture.is_dir():
                shutil.copytree(fixture, work / fixture.name)
            else:
                shutil.copy2(fixture, work / fixture.name)
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("GRAPHMEM_", "NEO4J_")) and key != "XDG_DATA_HOME"
        }
        env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
        env.pop("VIRTUAL_ENV", None)
        env.pop("PYTHONPATH", None)
        env["HOME"] = str(home)
        env["GRAPHMEM_DATA_DIR"] = str(home / ".local" / "share" / "graphmem")
        env["COLUMNS"] = "100"
        # A doc's hook commands capture only: a local server they started would outlive
        # the doc (tests/integration/inject starts and stops its own).
        env["GRAPHMEM_HOOK_LOCAL"] = "off"
        if settings is not None:
            env["GRAPHMEM_NEO4J_URI"] = settings.uri
            env["GRAPHMEM_NEO4J_USER"] = settings.user
            env["GRAPHMEM_NEO4J_PASSWORD"] = settings.password
        else:
            env["GRAPHMEM_NEO4J_BOLT_PORT"] = str(free_port())
            env["GRAPHMEM_NEO4J_HTTP_PORT"] = str(free_port())
        return cls(root, env, settings is None)

    @property
    def work(self) -> Path:
        """The working directory of the first block (later ones start where the one
        before them left off)."""
        return self.root / "work"

    @property
    def data_dir(self) -> Path:
        return Path(self.env["GRAPHMEM_DATA_DIR"])

    def _command(self, block: Block, shell: str) -> list[str]:
        state = self.root / "state"
        suffix = ".py" if block.language == "python" else ".sh"
        script = state / f"block-{block.line}{suffix}"
        script.write_text(block.text, encoding="utf-8")
        wrapper = state / "wrapper.sh"
        wrapper.write_text(_WRAPPER, encoding="utf-8")
        return ["bash", str(wrapper), str(state / shell), str(script), sys.executable]

    def _popen(self, block: Block, stdin: int, cwd: Path | None = None) -> subprocess.Popen[str]:
        # A block run elsewhere (the repository root) gets a shell state of its own, so
        # its directory does not become the next block's.
        self.started = time.monotonic()
        return subprocess.Popen(
            self._command(block, "shell" if cwd is None else f"shell-{block.line}"),
            cwd=cwd or self.work,
            env=self.env,
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )

    def run(self, block: Block, cwd: Path | None = None) -> Outcome:
        """Runs a bash or python block to its end (in ``cwd``, with a shell state of its
        own, when given)."""
        process = self._popen(block, subprocess.DEVNULL, cwd)
        try:
            stdout, stderr = process.communicate(timeout=BLOCK_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
            stderr += f"\n(killed after {BLOCK_TIMEOUT_S:.0f} s)"
        return self._outcome(block, process.returncode, stdout, stderr)

    def _outcome(self, block: Block, code: int, stdout: str, stderr: str) -> Outcome:
        seconds = time.monotonic() - self.started
        self.log.append(
            f"== {block.where} exited {code} after {seconds:.1f} s\n{_clip(stdout)}{_clip(stderr)}"
        )
        return Outcome(code, stdout, stderr)

    def serve(self, block: Block, token: str) -> tuple[Outcome, list[str]]:
        """Runs a block whose last command serves MCP over HTTP until it is stopped.

        Waits until its port listens, then checks that a request without a token gets
        401 and one with ``token`` gets an MCP answer, then stops it with SIGINT.

        Returns:
            How it ended, and what the checks found wrong (nothing when it works).
        """
        words = block.text.split()
        port = int(words[words.index("--port") + 1]) if "--port" in words else 8765
        if not port_is_free(port):
            return Outcome(-1, "", ""), [f"port {port} is taken before the server starts"]
        process = self._popen(block, subprocess.DEVNULL)
        problems: list[str] = []
        url = f"http://127.0.0.1:{port}/mcp"
        try:
            if not wait_until(lambda: not port_is_free(port) or process.poll() is not None, 120):
                problems.append(f"nothing listened on {port} within 120 s")
            elif process.poll() is not None:
                problems.append("the server exited before it was stopped")
            else:
                problems += _check_http(url, token)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGINT)
            try:
                stdout, stderr = process.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                stdout, stderr = process.communicate()
                problems.append("the server did not stop within 60 s of SIGINT")
        return self._outcome(block, process.returncode, stdout, stderr), problems

    def mcp_stdio(self, block: Block) -> tuple[Outcome, list[str]]:
        """Runs a block whose last command is an MCP server on stdin/stdout: sends the
        handshake and a tools/list, then closes stdin.

        Returns:
            How it ended, and what was wrong with the answers (nothing when they hold
            the tool list).
        """
        from mcp.types import LATEST_PROTOCOL_VERSION

        messages = [
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": LATEST_PROTOCOL_VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "graphmem-docs-test", "version": "1"},
                },
            },
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        ]
        process = self._popen(block, subprocess.PIPE)
        assert process.stdin is not None and process.stdout is not None
        problems: list[str] = []
        answers: dict[int, dict[str, object]] = {}
        lines: list[str] = []
        try:
            process.stdin.write("".join(json.dumps(m) + "\n" for m in messages))
            process.stdin.flush()
            deadline = time.monotonic() + 120
            while 2 not in answers and time.monotonic() < deadline:
                line = process.stdout.readline()
                if not line:
                    break
                lines.append(line)
                reply = json.loads(line)
                if isinstance(reply.get("id"), int):
                    answers[reply["id"]] = reply
            stdout_rest, stderr = process.communicate(timeout=60)  # closes stdin
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout_rest, stderr = process.communicate()
            problems.append("the MCP server did not exit when its stdin closed")
        tools = answers.get(2, {}).get("result", {})
        names = [tool["name"] for tool in tools.get("tools", [])] if isinstance(tools, dict) else []
        if "result" not in answers.get(1, {}):
            problems.append("no answer to initialize")
        if not {"remember", "believe", "recall"} <= set(names):
            problems.append(f"tools/list did not list the memory tools: {names}")
        outcome = self._outcome(block, process.returncode, "".join(lines) + stdout_rest, stderr)
        return outcome, problems


def _clip(text: str, keep: int = 2000) -> str:
    """``text``, or its head and tail when it is long (the log of a passing doc)."""
    if len(text) <= 2 * keep:
        return text
    return f"{text[:keep]}\n[... {len(text) - 2 * keep} characters ...]\n{text[-keep:]}"


def _check_http(url: str, token: str) -> list[str]:
    """A request without a token must get 401; one with a live token an MCP answer."""
    body = json.dumps(INITIALIZE).encode()
    problems = []
    for bearer, expected in ((None, 401), (token, 200)):
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        if bearer is not None:
            headers["Authorization"] = f"Bearer {bearer}"
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        if status != expected:
            problems.append(f"POST {url} {'with' if bearer else 'without'} a token got {status}")
    return problems
