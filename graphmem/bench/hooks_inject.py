"""``graphmem bench hooks --inject``: hook answers with context, as the host sees them.

Per size, a scratch principal's project holds that many beliefs: dead ends, fixes
("`CMD` failed with "SIG"; it passed after ..."), user rules, facts and decisions,
written by a seeded generator from a vocabulary of commands, error signatures, files
and areas (:func:`project_beliefs`), in batches as ``bench scale`` writes them, then
embedded once into the data directory a ``graphmem serve`` then reads. With the server
warm, each round times, interleaved and each first in turn:

- ``python -c pass`` on this interpreter (the baseline);
- the hook command ``graphmem hook claude-code`` (the console script) on a SessionStart
  and on a UserPromptSubmit payload of a new session, forwarding to the server
  (``GRAPHMEM_HOOK_URL``) and printing its answer, start to exit;

then the same payloads as ``POST /hooks/claude-code`` alone on a kept-alive connection,
beside an authenticated ``GET`` answered 404. Prompts cycle through :data:`PROMPTS`:
some ask about what the project's memory holds, some about nothing it holds. The
tokens injected are the embedder's (:func:`~graphmem.vectors.tokens.count_tokens`) in
the answer's ``additionalContext``, as the command printed it.
"""

from __future__ import annotations

import compileall
import http.client
import json
import os
import random
import statistics
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from graphmem.admin import Admin
from graphmem.bench.hooks import (
    HOST,
    PACKAGE,
    WARM_UP,
    Scratch,
    console_script,
    run_timed,
    scratch_run,
    spooled,
    spread,
    timed_request,
    warm_answers,
    warm_server,
)
from graphmem.client import GraphMem
from graphmem.models import BeliefType
from graphmem.vectors.tokens import count_tokens

GOAL_PROMPT_P95_OVER_INTERPRETER = 2.5
"""UserPromptSubmit through the hook command: p95 at most this times ``python -c pass``."""
BATCH = 1_000
"""Beliefs per ``believe_many`` (as ``bench scale`` writes them)."""
KINDS = ("SessionStart", "UserPromptSubmit")

_COMMANDS = (
    "pytest tests/billing",
    "pytest -x tests/test_checkout.py",
    "python -m pytest tests/integration",
    "npm test",
    "npm run build",
    "npx tsc --noEmit",
    "cargo build --release",
    "cargo test",
    "go test ./...",
    "make lint",
    "make migrate",
    "docker compose up -d db",
    "alembic upgrade head",
    "mypy src",
    "ruff check .",
    "pip install -e .[dev]",
    "poetry install",
    "yarn jest --ci",
)
_SIGNATURES = (
    "ModuleNotFoundError: No module named 'stripe'",
    "ModuleNotFoundError: No module named 'psycopg2'",
    "ImportError: cannot import name 'TypedDict' from 'typing_extensions'",
    "AssertionError: assert 1999 == 2000",
    "sqlalchemy.exc.OperationalError: connection refused",
    "Error: listen EADDRINUSE: address already in use :::3000",
    "connect ECONNREFUSED 127.0.0.1:5432",
    "error[E0308]: mismatched types",
    "TS2345: Argument of type 'string' is not assignable to parameter of type 'number'",
    "KeyError: 'DATABASE_URL'",
    "TimeoutError: timed out after 30000 ms",
    "PermissionError: [Errno 13] Permission denied: '/var/run/app.sock'",
    "fatal: not a git repository",
    "alembic.util.exc.CommandError: Can't locate revision identified by 'a1b2c3'",
    "Cannot find module '@/lib/money' from 'src/checkout/total.test.ts'",
    "panic: runtime error: invalid memory address or nil pointer dereference",
    'django.db.utils.ProgrammingError: relation "orders" does not exist',
    "FAILED tests/test_tax.py::test_rounding - decimal.InvalidOperation",
)
_FILES = (
    "src/billing/invoice.py",
    "src/billing/tax.py",
    "src/checkout/cart.py",
    "src/checkout/total.ts",
    "src/auth/session.py",
    "src/auth/tokens.go",
    "src/search/ranking.rs",
    "src/payments/stripe_client.py",
    "src/orders/models.py",
    "src/notifications/email.py",
    "migrations/env.py",
    "tests/conftest.py",
    "tests/test_tax.py",
    "package.json",
    "pyproject.toml",
    "Cargo.toml",
    "docker-compose.yml",
    ".env.example",
    "tsconfig.json",
    "Makefile",
)
_EDITS = (
    "from decimal import ROUND_HALF_UP",
    "timeout = 60",
    "DATABASE_URL = os.environ.get('DATABASE_URL', 'sqlite://')",
    '"moduleResolution": "bundler"',
    "ports: ['5433:5432']",
    "retries = 3",
    "pool_size = 20",
    "@pytest.mark.usefixtures('db')",
    'edition = "2021"',
    "typing-extensions>=4.7",
)
_INSTALLS = (
    "pip install stripe",
    "pip install psycopg2-binary",
    "npm ci",
    "cargo update -p serde",
    "docker compose up -d db",
    "alembic stamp head",
    "pip install 'typing-extensions>=4.7'",
)
_AREAS = (
    "billing",
    "checkout",
    "auth",
    "search",
    "payments",
    "orders",
    "notifications",
    "inventory",
    "reporting",
    "shipping",
)
_RULES = (
    "Use {tool} rather than {other} in {area}.",
    "Never commit straight to main; open a pull request for {area}.",
    "Keep {area} handlers free of SQL: queries belong in the repository layer.",
    "Always run {command} before pushing.",
    "Prefer small pull requests: one concern of {area} per change.",
    "Do not mock the database in {area} tests; use the test container.",
    "Write money amounts as integer cents in {area}, never floats.",
    "Name {area} tests after the behaviour, not the function.",
)
_TOOLS = (
    ("ruff", "flake8"),
    ("pytest", "unittest"),
    ("httpx", "requests"),
    ("pnpm", "npm"),
    ("structlog", "print statements"),
    ("pydantic", "hand-written validation"),
    ("Decimal", "float"),
)
_FACTS = (
    "The project's tests run with `{command}`.",
    "The project builds with `{command}`.",
    "{file} and {other_file} are edited together.",
    "In {area}, {thing} {claim}.",
    "{file} reads its settings from environment variables prefixed APP_.",
    "The {area} service talks to Postgres 15 on port 5432 in development.",
)
_THINGS = (
    "invoice totals",
    "session tokens",
    "the retry budget",
    "the rate limiter",
    "cache keys",
    "feature flags",
    "webhook signatures",
    "currency rounding",
    "background jobs",
    "the connection pool",
    "CSV exports",
    "timezone handling",
)
_CLAIMS = (
    "must be idempotent because clients retry on timeouts",
    "are cached for five minutes",
    "break when the locale uses a comma as decimal separator",
    "need an explicit transaction around the two writes",
    "use exponential backoff capped at thirty seconds",
    "depend on the clock being UTC in every container",
    "are slow without the composite index on tenant and created_at",
    "return 409 on a duplicate idempotency key",
    "are read from the replica and may lag by seconds",
)
_DECISIONS = (
    "We chose {tool} over {other} for {area} to keep one way of doing it.",
    "{area} moved to the v2 API; the v1 endpoints stay read-only until the next release.",
    "{area} stores timestamps in UTC and converts only at the edges.",
    "The {area} queue consumer runs in its own worker pool to protect request latency.",
)
_MIX = (
    (BeliefType.DEAD_END, 0.2),
    (BeliefType.LESSON, 0.25),
    (BeliefType.PREFERENCE, 0.1),
    (BeliefType.FACT, 0.3),
    (BeliefType.DECISION, 0.15),
)
"""Belief types and their shares."""

PROMPTS: tuple[tuple[str, bool], ...] = (
    ("pytest tests/billing fails with ModuleNotFoundError: No module named 'stripe', fix it", True),
    ("docker compose up -d db says connect ECONNREFUSED 127.0.0.1:5432, what now?", True),
    ("How do we run the tests in this project?", True),
    ("alembic upgrade head can't locate revision a1b2c3, how did we get past that before?", True),
    ("npx tsc --noEmit complains TS2345 string not assignable to number in checkout", True),
    ("Add a retry with backoff to the payments webhook handler", True),
    ("cargo build --release fails with error[E0308]: mismatched types", True),
    ("Why is the invoice total off by one cent after tax rounding?", True),
    ("npm run build fails: address already in use :::3000", True),
    ("Refactor the auth session token refresh and keep the tests green", True),
    ("Write a haiku about the first snow of winter", False),
    ("What is the capital of Australia?", False),
    ("Suggest a vegetarian dinner for four people", False),
    ("Draft a polite email declining a meeting next Tuesday", False),
    ("Translate 'good morning, see you tomorrow' into Italian", False),
    ("Who won the football world cup in 1998?", False),
)
"""Prompts the rounds cycle through, each with whether it asks about the project's work."""


def project_beliefs(count: int, project: str, seed: int = 5) -> Iterator[dict[str, Any]]:
    """Yields ``count`` belief rows for ``project``: a seeded mix of kinds and texts."""
    rng = random.Random(seed)
    kinds = [kind for kind, _ in _MIX]
    weights = [share for _, share in _MIX]
    for _ in range(count):
        kind = rng.choices(kinds, weights)[0]
        statement, subject = _statement(rng, kind)
        yield {
            "statement": statement,
            "subject": subject,
            "project": project,
            "type": kind,
            "confidence": round(rng.uniform(0.5, 1.0), 2),
        }


def _statement(rng: random.Random, kind: BeliefType) -> tuple[str, str]:
    """A statement of ``kind`` and its subject."""
    command, signature = rng.choice(_COMMANDS), rng.choice(_SIGNATURES)
    file, area = rng.choice(_FILES), rng.choice(_AREAS)
    if kind is BeliefType.DEAD_END:
        tried = rng.choice((f"Changing {file} to `{rng.choice(_EDITS)}`", f"Editing {file}"))
        text = f'{tried} did not fix "{signature}" from `{command}`; that approach was abandoned.'
        return text, command
    if kind is BeliefType.LESSON:
        steps = [f"running `{rng.choice(_INSTALLS)}`", f"changing {file} to `{rng.choice(_EDITS)}`"]
        how = " and ".join(rng.sample(steps, rng.randint(1, 2)))
        return f'`{command}` failed with "{signature}"; it passed after {how}.', command
    tool, other = rng.choice(_TOOLS)
    if kind is BeliefType.PREFERENCE:
        rule = rng.choice(_RULES)
        return rule.format(tool=tool, other=other, area=area, command=command), area
    if kind is BeliefType.DECISION:
        return rng.choice(_DECISIONS).format(tool=tool, other=other, area=area), area
    fact = rng.choice(_FACTS).format(
        command=command,
        file=file,
        other_file=rng.choice(_FILES),
        area=area,
        thing=rng.choice(_THINGS),
        claim=rng.choice(_CLAIMS),
    )
    return fact[0].upper() + fact[1:], area


def run_inject_sizes(
    sizes: Sequence[int],
    rounds: int,
    progress: Callable[[int, str, int], None] = lambda size, stage, n: None,
    finished: Callable[[dict[str, Any]], None] = lambda figures: None,
) -> list[dict[str, Any]]:
    """Runs :func:`run_inject_bench` per size, smallest first; each is ``finished`` in turn."""
    done: list[dict[str, Any]] = []
    for size in sorted(sizes):
        figures = run_inject_bench(size, rounds, partial(progress, size))
        finished(figures)
        done.append(figures)
    return done


def run_inject_bench(
    beliefs: int, rounds: int, progress: Callable[[str, int], None] = lambda stage, n: None
) -> dict[str, Any]:
    """Times ``rounds`` SessionStart and UserPromptSubmit hooks with ``beliefs`` in memory.

    Args:
        beliefs: How many beliefs the project holds.
        rounds: Rounds timed (a SessionStart and a prompt of a new session each).
        progress: Called with (stage, how many more done): ``write``, ``embed`` (once,
            with the count), ``rounds`` (1 per round on each transport).

    Returns:
        Per kind p50/p95 through the command and over HTTP, the baselines and ratios,
        the goal, and the tokens injected.

    Raises:
        ConfigError: No ``graphmem`` console script is installed beside this interpreter.
        RuntimeError: ``graphmem serve`` did not start, or a hook failed.
    """
    command = console_script()
    compileall.compile_dir(PACKAGE, quiet=1)
    with Admin() as admin, scratch_run(admin) as scratch:
        project = scratch.work_tree.name
        load = _load(admin, scratch, beliefs, project, progress)
        with warm_server(admin, scratch) as port:
            warm_answers(port, scratch, list(_round(scratch, 0, "first")[:2]))
            commands = _time_commands(command, scratch, port, rounds, progress)
            over_http = _time_http(port, scratch, rounds, progress)
        fell_back = sum(1 for _ in spooled(scratch.fallback_dir, scratch.principal))
    return _figures(beliefs, rounds, project, command, load, commands, over_http, fell_back)


def _load(
    admin: Admin,
    scratch: Scratch,
    beliefs: int,
    project: str,
    progress: Callable[[str, int], None],
) -> dict[str, Any]:
    """Writes the beliefs in batches and embeds them into the server's data directory."""
    settings = admin.settings
    mix: Counter[str] = Counter()
    with GraphMem(
        scratch.principal,
        uri=settings.uri,
        user=settings.user,
        password=settings.password,
        database=settings.database,
        data_dir=scratch.server_dir,
    ) as memory:
        started = time.perf_counter()
        batch: list[dict[str, Any]] = []
        for row in project_beliefs(beliefs, project):
            mix[str(row["type"])] += 1
            batch.append(row)
            if len(batch) == BATCH:
                memory.believe_many(batch)
                progress("write", len(batch))
                batch = []
        if batch:
            memory.believe_many(batch)
            progress("write", len(batch))
        write_seconds = time.perf_counter() - started
        started = time.perf_counter()
        memory.recall("catch the views up", k=1)  # every belief embedded, views saved
        embed_seconds = time.perf_counter() - started
        progress("embed", beliefs)
    return {
        "mix": dict(sorted(mix.items())),
        "write_seconds": round(write_seconds, 1),
        "embed_seconds": round(embed_seconds, 1),
    }


def _payload(scratch: Scratch, kind: str, session: str, prompt: str = "") -> bytes:
    """A Claude Code payload of ``kind`` for ``session`` in the scratch work tree."""
    payload: dict[str, Any] = {
        "session_id": session,
        "transcript_path": f"/home/user/.claude/projects/-shop/{session}.jsonl",
        "cwd": str(scratch.work_tree),
        "hook_event_name": kind,
    }
    if kind == "SessionStart":
        payload["source"] = "startup"
    else:
        payload["permission_mode"] = "default"
        payload["prompt"] = prompt
    return json.dumps(payload).encode("utf-8")


def _round(scratch: Scratch, index: int, transport: str) -> tuple[bytes, bytes, int]:
    """A new session's SessionStart and prompt payloads, and the prompt's index."""
    session = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{scratch.principal}/{transport}/{index}"))
    prompt = index % len(PROMPTS)
    start = _payload(scratch, "SessionStart", session)
    return start, _payload(scratch, "UserPromptSubmit", session, PROMPTS[prompt][0]), prompt


Timed = dict[str, list[tuple[float, int]]]
"""Per run: (milliseconds, tokens injected) per round, timed rounds only."""


def _time_commands(
    command: Path, scratch: Scratch, port: int, rounds: int, progress: Callable[[str, int], None]
) -> tuple[Timed, list[int]]:
    """Per round: the bare interpreter, the hook on SessionStart, the hook on a prompt."""
    base = {key: value for key, value in os.environ.items() if not key.startswith("GRAPHMEM_")}
    forward_env = {
        **base,
        "GRAPHMEM_PRINCIPAL": scratch.principal,
        "GRAPHMEM_DATA_DIR": str(scratch.fallback_dir),
        "GRAPHMEM_HOOK_URL": f"http://127.0.0.1:{port}",
        "GRAPHMEM_HOOK_TOKEN_FILE": str(scratch.token_file),
    }
    hook = [str(command), "hook", HOST]
    times: Timed = {"interpreter": [], "SessionStart": [], "UserPromptSubmit": []}
    prompts: list[int] = []
    order = list(times)
    for index in range(rounds + WARM_UP):
        start, prompt_body, prompt = _round(scratch, index, "command")
        runs = {
            "interpreter": ([sys.executable, "-c", "pass"], base, b""),
            "SessionStart": (hook, forward_env, start),
            "UserPromptSubmit": (hook, forward_env, prompt_body),
        }
        order = order[1:] + order[:1]  # each goes first in turn
        for name in order:
            arguments, environment, body = runs[name]
            elapsed, output = run_timed(arguments, environment, body)
            times[name].append((elapsed, _tokens(output)))
        prompts.append(prompt)
        if index >= WARM_UP:
            progress("rounds", 1)
    return {name: values[WARM_UP:] for name, values in times.items()}, prompts[WARM_UP:]


def _time_http(
    port: int, scratch: Scratch, rounds: int, progress: Callable[[str, int], None]
) -> Timed:
    """Per round, on one connection: a bare authenticated 404, then both hooks' POSTs."""
    token = scratch.token_file.read_text(encoding="ascii")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times: Timed = {"http_bare": [], "SessionStart": [], "UserPromptSubmit": []}
    try:
        for index in range(rounds + WARM_UP):
            start, prompt_body, _ = _round(scratch, index, "http")
            bare, _ = timed_request(connection, "GET", "/bench-none", headers, 404)
            times["http_bare"].append((bare, 0))
            for name, body in (("SessionStart", start), ("UserPromptSubmit", prompt_body)):
                elapsed, answer = timed_request(
                    connection, "POST", f"/hooks/{HOST}", headers, 200, body
                )
                times[name].append((elapsed, _tokens(answer)))
            if index >= WARM_UP:
                progress("rounds", 1)
    finally:
        connection.close()
    return {name: values[WARM_UP:] for name, values in times.items()}


def _tokens(answer: bytes) -> int:
    """The tokens of the context a Claude Code hook answer adds (0 for none)."""
    if not answer.strip():
        return 0
    output = json.loads(answer)
    return count_tokens(str(output.get("hookSpecificOutput", {}).get("additionalContext", "")))


def _figures(
    beliefs: int,
    rounds: int,
    project: str,
    command: Path,
    load: dict[str, Any],
    commands: tuple[Timed, list[int]],
    over_http: Timed,
    fell_back: int,
) -> dict[str, Any]:
    by_command, prompts = commands
    baselines = {
        "interpreter": spread([ms for ms, _ in by_command["interpreter"]]),
        "http_bare": spread([ms for ms, _ in over_http["http_bare"]]),
    }
    transports: dict[str, Any] = {}
    for transport, timed, baseline in (
        ("command", by_command, "interpreter"),
        ("http", over_http, "http_bare"),
    ):
        transports[transport] = {"baseline": baseline}
        for kind in KINDS:
            figures = spread([ms for ms, _ in timed[kind]])
            transports[transport][kind] = {
                **figures,
                "ratio_p50": round(figures["p50_ms"] / baselines[baseline]["p50_ms"], 2),
                "ratio_p95": round(figures["p95_ms"] / baselines[baseline]["p95_ms"], 2),
            }
    ratio = transports["command"]["UserPromptSubmit"]["ratio_p95"]
    return {
        "beliefs": beliefs,
        "project": project,
        "rounds": rounds,
        "command": f"{command} hook {HOST}",
        "load": load,
        "baselines": baselines,
        "transports": transports,
        "injection": _injected(by_command, prompts),
        "forward_fell_back": fell_back,
        "goal": {
            "command_prompt_p95_over_interpreter": GOAL_PROMPT_P95_OVER_INTERPRETER,
            "ratio_p95": ratio,
            "met": ratio <= GOAL_PROMPT_P95_OVER_INTERPRETER,
        },
    }


def _injected(timed: Timed, prompts: list[int]) -> dict[str, Any]:
    """What the command's answers added: tokens per prompt and per brief, and how often."""
    tokens = [count for _, count in timed["UserPromptSubmit"]]
    briefs = [count for _, count in timed["SessionStart"]]
    given = [count for count in tokens if count]
    per_prompt: dict[str, dict[str, Any]] = {}
    for prompt, count in zip(prompts, tokens, strict=True):
        text, related = PROMPTS[prompt]
        entry = per_prompt.setdefault(text, {"related": related, "tokens": []})
        entry["tokens"].append(count)

    def share(related: bool) -> float:
        counts = [c for p, c in zip(prompts, tokens, strict=True) if PROMPTS[p][1] is related]
        return round(sum(1 for c in counts if c) / len(counts), 3) if counts else 0.0

    return {
        "prompts": len(tokens),
        "median_tokens_per_prompt": statistics.median(tokens),
        "median_tokens_when_injected": statistics.median(given) if given else 0,
        "injected_share": round(len(given) / len(tokens), 3),
        "injected_share_related": share(True),
        "injected_share_unrelated": share(False),
        "brief_median_tokens": statistics.median(briefs),
        "brief_share": round(sum(1 for c in briefs if c) / len(briefs), 3),
        "by_prompt": [
            {
                "prompt": text,
                "related": entry["related"],
                "median_tokens": statistics.median(entry["tokens"]),
            }
            for text, entry in per_prompt.items()
        ],
    }


def inject_lines(figures: dict[str, Any]) -> list[str]:
    """One size of ``bench hooks --inject``: p50/p95 per kind and transport, tokens, goal."""
    transports, baselines = figures["transports"], figures["baselines"]
    load, injected, goal = figures["load"], figures["injection"], figures["goal"]
    lines = [
        f"{figures['beliefs']:,} beliefs in {figures['project']} "
        f"(written in {load['write_seconds']} s, embedded in {load['embed_seconds']} s), "
        f"{figures['rounds']} rounds: {figures['command']}",
        f"{'p50 / p95 ms':<24}{'command':>26}{'HTTP POST':>26}",
    ]
    for kind in ("SessionStart", "UserPromptSubmit"):
        cells = [_cell(transports[name][kind]) for name in ("command", "http")]
        lines.append(f"{kind:<24}" + "".join(f"{cell:>26}" for cell in cells))
    cells = [_cell(baselines[transports[name]["baseline"]]) for name in ("command", "http")]
    lines.append(f"{'baseline':<24}" + "".join(f"{cell:>26}" for cell in cells))
    for kind in ("SessionStart", "UserPromptSubmit"):
        ratios = [
            f"{transports[name][kind]['ratio_p50']}x / {transports[name][kind]['ratio_p95']}x"
            for name in ("command", "http")
        ]
        lines.append(f"{'ratio ' + kind:<24}" + "".join(f"{r:>26}" for r in ratios))
    verdict = "met" if goal["met"] else "MISSED"
    lines.append(
        f"goal: UserPromptSubmit p95 <= {goal['command_prompt_p95_over_interpreter']}x "
        f"python -c pass: {goal['ratio_p95']}x, {verdict}"
    )
    lines.append(
        f"tokens injected per prompt: median {injected['median_tokens_per_prompt']} "
        f"({injected['median_tokens_when_injected']} when any); prompts with context "
        f"{injected['injected_share']:.0%} (about the project "
        f"{injected['injected_share_related']:.0%}, unrelated "
        f"{injected['injected_share_unrelated']:.0%}); brief median "
        f"{injected['brief_median_tokens']} tokens; forwarding fell back "
        f"{figures['forward_fell_back']} times"
    )
    return lines


def _cell(figures: dict[str, Any]) -> str:
    return f"{figures['p50_ms']} / {figures['p95_ms']} (n={figures['n']})"
