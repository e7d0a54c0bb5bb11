"""``graphmem bench hooks``: the capture hook's wall time as the agent host sees it.

Payloads are the recorded Claude Code sessions' (``tests/data/sessions/claude-code``),
drawn round-robin over their event kinds, each kind's payloads in turn, the recorded
work tree replaced by a scratch git work tree. Three transports, each beside its
baseline measured in the same run:

- the command ``graphmem hook claude-code`` (the console script beside this
  interpreter), process start to exit with the payload on stdin: on the spool path
  (no server) and forwarding to a warm ``graphmem serve``; baseline: ``python -c pass``
  on the same interpreter, same stdin. The three run interleaved, event by event.
- HTTP: ``POST /hooks/claude-code`` to the same server, request to response on one
  kept-alive connection; baseline: an authenticated ``GET`` of a path the server does
  not have (404), interleaved on the same connection.

graphmem's modules are byte-compiled first, as installing a wheel does: with
``PYTHONDONTWRITEBYTECODE`` set and an editable install, every hook would otherwise
compile its modules from source, which is not what a host pays.

SessionEnd would start a consolidation per event; its payloads run in a second work
tree whose ``.graphmem.toml`` says ``capture = false``, so they are read and answered
but neither spooled nor consolidated. A scratch principal holds the server's token;
it, the server and the scratch directory are gone afterwards.
"""

from __future__ import annotations

import compileall
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphmem.admin import Admin
from graphmem.bench.stats import percentile
from graphmem.capture import spool
from graphmem.capture.event import SpoolRecord
from graphmem.errors import ConfigError
from graphmem.provision.probe import free_port, port_is_free, wait_until
from graphmem.settings import PRIVATE_FILE_MODE
from graphmem.store.ids import new_id

HOST = "claude-code"
FIXTURES = "tests/data/sessions/claude-code"
PACKAGE = Path(__file__).resolve().parents[1]
"""The graphmem package the hook runs from (byte-compiled before timing)."""
DEFAULT_ROOT = PACKAGE.parent
"""The checkout this graphmem runs from (its recorded sessions are read)."""
WARM_UP = 10
"""Events sent on each transport before timing starts (the server's first requests)."""
OPTED_OUT_KIND = "SessionEnd"
"""The kind measured in an opted-out work tree (it would start a consolidation)."""
GOALS = {"command_p95_over_interpreter": 1.5, "http_p95_over_bare": 3.0, "http_p95_ms": 20.0}
"""What the hook should meet: the command's p95 against a bare interpreter start, and
HTTP's against a bare round trip and in milliseconds."""

FIRST_ANSWER_SECONDS = 1_800
"""The most the server's first answers take (it loads the embedder and the views then)."""

Payload = tuple[str, bytes]
"""(event kind, the payload's bytes)."""


@dataclass(frozen=True)
class Scratch:
    """Where one run works.

    Attributes:
        principal: The scratch principal (spool path and server token alike).
        spool_dir: The spool path's data directory.
        fallback_dir: The forwarding command's data directory (used if it falls back).
        server_dir: The server's data directory.
        token_file: The server token, 0600.
        work_tree: The git work tree events happen in.
        opted_out: The work tree with ``capture = false`` (SessionEnd).
    """

    principal: str
    spool_dir: Path
    fallback_dir: Path
    server_dir: Path
    token_file: Path
    work_tree: Path
    opted_out: Path


def run_hooks_bench(
    events: int, root: Path = DEFAULT_ROOT, progress: Callable[[int], None] = lambda n: None
) -> dict[str, Any]:
    """Times ``events`` hook events on each transport beside its baseline.

    Args:
        events: Events timed per transport (spread round-robin over the kinds).
        root: The graphmem checkout whose recorded sessions are replayed.
        progress: Called with 1 per event timed on every transport of one step.

    Returns:
        Per transport p50/p95/n overall and per kind, its baseline and ratios, and
        whether each goal is met.

    Raises:
        ConfigError: ``root`` holds no recorded sessions, or no ``graphmem`` console
            script is installed beside this interpreter.
        RuntimeError: ``graphmem serve`` did not start, or a hook failed.
    """
    recorded = _recorded(root)
    command = console_script()
    compileall.compile_dir(PACKAGE, quiet=1)
    with Admin() as admin, scratch_run(admin) as scratch:
        payloads = _payloads(recorded, scratch, events)
        with warm_server(admin, scratch) as port:
            warm_answers(port, scratch, _first_of_each(payloads))
            commands = _time_commands(command, scratch, port, payloads, progress)
            over_http = _time_http(port, scratch, payloads, progress)
        fell_back = sum(1 for _ in spooled(scratch.fallback_dir, scratch.principal))
    return _figures(events, command, payloads, commands, over_http, fell_back)


def _recorded(root: Path) -> dict[str, list[bytes]]:
    """Every readable recorded payload, by event kind, in fixture order."""
    files = sorted((root / FIXTURES).glob("*.jsonl"))
    if not files:
        raise ConfigError(
            f"{root} holds no {FIXTURES}: run the hooks bench from a graphmem checkout "
            "or pass --root",
            field="root",
        )
    kinds: dict[str, list[bytes]] = {}
    for path in files:
        for line in path.read_bytes().splitlines():
            try:
                payload = json.loads(line)
            except ValueError:
                continue  # the fixture's torn last line
            kinds.setdefault(str(payload["hook_event_name"]), []).append(line)
    return kinds


def _first_of_each(payloads: list[Payload]) -> list[bytes]:
    """The first payload of each kind."""
    first: dict[str, bytes] = {}
    for kind, body in payloads:
        first.setdefault(kind, body)
    return list(first.values())


def console_script() -> Path:
    """The ``graphmem`` console script beside this interpreter.

    Raises:
        ConfigError: There is none.
    """
    script = Path(sys.executable).parent / "graphmem"
    if not script.is_file():
        raise ConfigError(
            f"no graphmem console script beside {sys.executable}: install graphmem into "
            "this interpreter's environment",
            field="command",
        )
    return script


def _payloads(recorded: dict[str, list[bytes]], scratch: Scratch, events: int) -> list[Payload]:
    """``events`` payloads round-robin over the kinds, the recorded cwd replaced."""
    kinds = sorted(recorded)
    chosen: list[Payload] = []
    for index in range(events + WARM_UP):
        kind = kinds[index % len(kinds)]
        pool = recorded[kind]
        line = pool[(index // len(kinds)) % len(pool)]
        payload = json.loads(line)
        tree = scratch.opted_out if kind == OPTED_OUT_KIND else scratch.work_tree
        text = json.dumps(payload).replace(str(payload["cwd"]), str(tree))
        chosen.append((kind, text.encode("utf-8")))
    return chosen


@contextmanager
def scratch_run(admin: Admin) -> Iterator[Scratch]:
    """A scratch directory and principal with a server token, both gone afterwards."""
    principal = f"bench-{new_id()}"
    base = Path(tempfile.mkdtemp(prefix="graphmem-bench-hooks-"))
    try:
        issued = admin.create_token(principal, "bench hooks")
        token_file = base / "token"
        descriptor = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
        with os.fdopen(descriptor, "w", encoding="ascii") as stream:
            stream.write(issued.secret)
        work_tree, opted_out = base / "shop", base / "shop-opted-out"
        for tree in (work_tree, opted_out):
            (tree / ".git").mkdir(parents=True)
        (opted_out / ".graphmem.toml").write_text('project = "shop"\ncapture = false\n')
        yield Scratch(
            principal=principal,
            spool_dir=base / "spool-data",
            fallback_dir=base / "fallback-data",
            server_dir=base / "server-data",
            token_file=token_file,
            work_tree=work_tree,
            opted_out=opted_out,
        )
    finally:
        try:
            admin.delete_principal(principal)
        finally:
            shutil.rmtree(base, ignore_errors=True)


@contextmanager
def warm_server(admin: Admin, scratch: Scratch) -> Iterator[int]:
    """A warm ``graphmem serve`` on a free port, stopped afterwards."""
    port = free_port()
    settings = admin.settings
    environment = {
        **os.environ,
        "GRAPHMEM_NEO4J_URI": settings.uri,
        "GRAPHMEM_NEO4J_USER": settings.user,
        "GRAPHMEM_NEO4J_PASSWORD": settings.password,
        "GRAPHMEM_NEO4J_DATABASE": settings.database,
    }
    environment.pop("GRAPHMEM_PRINCIPAL", None)
    arguments = ["serve", "--port", str(port), "--data-dir", str(scratch.server_dir)]
    log_file = scratch.server_dir.parent / "serve.log"
    with log_file.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "graphmem", *arguments],
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        started = wait_until(lambda: not port_is_free(port) or process.poll() is not None, 60, 0.1)
        if not started or process.poll() is not None:
            tail = log_file.read_text(errors="replace")[-1000:]
            raise RuntimeError(f"graphmem serve did not start listening: {tail}")
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _time_commands(
    command: Path,
    scratch: Scratch,
    port: int,
    payloads: list[Payload],
    progress: Callable[[int], None],
) -> dict[str, list[float]]:
    """Per run: the bare interpreter, the hook on the spool path, the hook forwarding."""
    base = {key: value for key, value in os.environ.items() if not key.startswith("GRAPHMEM_")}
    spool_env = {**base, "GRAPHMEM_DATA_DIR": str(scratch.spool_dir)}
    spool_env["GRAPHMEM_PRINCIPAL"] = scratch.principal
    spool_env["GRAPHMEM_HOOK_LOCAL"] = "off"  # the spool path: no local server started
    forward_env = {
        **spool_env,
        "GRAPHMEM_DATA_DIR": str(scratch.fallback_dir),
        "GRAPHMEM_HOOK_URL": f"http://127.0.0.1:{port}",
        "GRAPHMEM_HOOK_TOKEN_FILE": str(scratch.token_file),
    }
    runs = {
        "interpreter": ([sys.executable, "-c", "pass"], base),
        "command_spool": ([str(command), "hook", HOST], spool_env),
        "command_forward": ([str(command), "hook", HOST], forward_env),
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    order = list(runs)
    for index, (_, body) in enumerate(payloads):
        order = order[1:] + order[:1]  # each goes first in turn
        for name in order:
            arguments, environment = runs[name]
            elapsed, output = run_timed(arguments, environment, body)
            if output:
                raise RuntimeError(f"{name} printed {output[:200]!r}: an empty memory adds nothing")
            times[name].append(elapsed)
        if index >= WARM_UP:
            progress(1)
    return {name: values[WARM_UP:] for name, values in times.items()}


def run_timed(
    arguments: list[str], environment: dict[str, str], body: bytes
) -> tuple[float, bytes]:
    """Milliseconds from start to exit, and what it printed; it must exit 0."""
    started = time.perf_counter()
    done = subprocess.run(arguments, input=body, capture_output=True, env=environment, check=False)
    elapsed = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        raise RuntimeError(f"{arguments[-1]!r} exited {done.returncode}: {done.stderr[-200:]!r}")
    return elapsed, done.stdout


def _time_http(
    port: int, scratch: Scratch, payloads: list[Payload], progress: Callable[[int], None]
) -> dict[str, list[float]]:
    """Per event: a bare authenticated 404, then the hook's POST, on one connection."""
    token = scratch.token_file.read_text(encoding="ascii")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times: dict[str, list[float]] = {"http_bare": [], "http": []}
    try:
        for index, (_, body) in enumerate(payloads):
            bare, _ = timed_request(connection, "GET", "/bench-none", headers, 404)
            hook, _ = timed_request(connection, "POST", f"/hooks/{HOST}", headers, 200, body)
            times["http_bare"].append(bare)
            times["http"].append(hook)
            if index >= WARM_UP:
                progress(1)
    finally:
        connection.close()
    return {name: values[WARM_UP:] for name, values in times.items()}


def warm_answers(port: int, scratch: Scratch, bodies: list[bytes]) -> None:
    """Posts ``bodies`` untimed, waiting as long as it takes: the server warms up.

    The first events that get context load the embedder and the belief views, which
    takes longer than the forwarding command waits.
    """
    token = scratch.token_file.read_text(encoding="ascii")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=FIRST_ANSWER_SECONDS)
    try:
        for body in bodies:
            timed_request(connection, "POST", f"/hooks/{HOST}", headers, 200, body)
    finally:
        connection.close()


def timed_request(
    connection: http.client.HTTPConnection,
    method: str,
    path: str,
    headers: dict[str, str],
    expected: int,
    body: bytes | None = None,
) -> tuple[float, bytes]:
    """Milliseconds from sending the request to reading the whole response, and its body."""
    started = time.perf_counter()
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    answer = response.read()
    elapsed = (time.perf_counter() - started) * 1000
    if response.status != expected:
        raise RuntimeError(f"{method} {path} answered {response.status}, not {expected}")
    return elapsed, answer


def spooled(data_dir: Path, principal: str) -> Iterator[SpoolRecord]:
    """Every record in the principal's spools under ``data_dir``."""
    for path in sorted((data_dir / spool.SPOOL_DIR / principal).glob("*.jsonl")):
        yield from spool.read(path)


def spread(values: list[float]) -> dict[str, float]:
    """p50 and p95 in milliseconds, and how many."""
    return {
        "p50_ms": round(statistics.median(values), 2),
        "p95_ms": round(percentile(values, 95), 2),
        "n": len(values),
    }


def _figures(
    events: int,
    command: Path,
    payloads: list[Payload],
    commands: dict[str, list[float]],
    over_http: dict[str, list[float]],
    fell_back: int,
) -> dict[str, Any]:
    kinds = [kind for kind, _ in payloads[WARM_UP:]]
    times = {**commands, **over_http}
    baselines = {name: spread(times[name]) for name in ("interpreter", "http_bare")}
    transports: dict[str, Any] = {}
    for name, baseline in (
        ("command_spool", "interpreter"),
        ("command_forward", "interpreter"),
        ("http", "http_bare"),
    ):
        overall = spread(times[name])
        ratio_p50 = round(overall["p50_ms"] / baselines[baseline]["p50_ms"], 2)
        ratio_p95 = round(overall["p95_ms"] / baselines[baseline]["p95_ms"], 2)
        if name == "http":
            met = (
                ratio_p95 <= GOALS["http_p95_over_bare"]
                and overall["p95_ms"] < GOALS["http_p95_ms"]
            )
        else:
            met = ratio_p95 <= GOALS["command_p95_over_interpreter"]
        transports[name] = {
            "baseline": baseline,
            "all": overall,
            "by_kind": {
                kind: spread([t for t, k in zip(times[name], kinds, strict=True) if k == kind])
                for kind in sorted(set(kinds))
            },
            "ratio_p50": ratio_p50,
            "ratio_p95": ratio_p95,
            "goal_met": met,
        }
    return {
        "events": events,
        "kinds": sorted(set(kinds)),
        "command": f"{command} hook {HOST}",
        "opted_out_kinds": [OPTED_OUT_KIND],
        "forward_fell_back": fell_back,
        "baselines": baselines,
        "transports": transports,
        "goals": GOALS,
    }
