"""`graphmem bench ...`: benchmarks that print figures."""

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import TaskID

from graphmem.bench.agents import EMBEDDERS, run_agents_bench
from graphmem.bench.anchors import run_anchor_bench
from graphmem.bench.bm25 import BASELINES
from graphmem.bench.consolidate import run_consolidate_bench
from graphmem.bench.formation import run_formation_bench
from graphmem.bench.formation_replay import run_replay_bench
from graphmem.bench.hooks import DEFAULT_ROOT as HOOKS_ROOT
from graphmem.bench.hooks import run_hooks_bench
from graphmem.bench.hooks_inject import inject_lines, run_inject_sizes
from graphmem.bench.mcp import run_mcp_bench
from graphmem.bench.recall import ARM_SETS, load, run_recall_bench
from graphmem.bench.scale import (
    REAL_EMBEDDER_MAX,
    SUPERSEDED_SHARE,
    run_growth_bench,
)
from graphmem.bench.trust import run_trust_bench
from graphmem.bench.write import run_write_bench
from graphmem.cli._common import (
    JsonOption,
    WorkersOption,
    handles_errors,
    print_json,
    progress_bar,
)
from graphmem.errors import InvalidInput
from graphmem.models import MAX_BATCH_ROWS

app = typer.Typer(help="Benchmarks (they print figures; run them on a quiet machine).")


@app.command()
@handles_errors
def write(
    beliefs: Annotated[int, typer.Option(min=1, help="Beliefs to write in batches.")] = 20_000,
    batch: Annotated[int, typer.Option(min=1, max=MAX_BATCH_ROWS, help="Rows per batch.")] = 1_000,
    singles: Annotated[int, typer.Option(min=1, help="Single writes timed one by one.")] = 200,
    as_json: JsonOption = False,
) -> None:
    """Batched belief throughput beside a bare UNWIND ... CREATE, and single-write latency."""
    with progress_bar(as_json) as bar:
        task = bar.add_task("writing beliefs", total=beliefs + singles)
        figures = run_write_bench(beliefs, batch, singles, lambda n: bar.advance(task, n))
    if as_json:
        print_json(figures)
        return
    for name, value in figures.items():
        typer.echo(f"{name:<28} {value}")


@app.command()
@handles_errors
def anchors(
    path: Annotated[Path, typer.Argument(help="The source tree to index.")],
    project: Annotated[str, typer.Option(help="Project name for the scratch code graph.")],
    workers: WorkersOption = None,
    as_json: JsonOption = False,
) -> None:
    """Cold index and unchanged re-index of a tree beside a bare parse of it."""
    figures = run_anchor_bench(path, project, workers)
    if as_json:
        print_json(figures)
        return
    cold, warm = figures["cold"], figures["warm"]
    bare = figures["bare_parse"]
    typer.echo(f"bare parse: {bare['seconds']:.2f}s  {bare['files_per_s']} files/s (one process)")
    typer.echo(
        f"cold: {cold['seconds']:.2f}s  {cold['files_per_s']} files/s "
        f"({cold['ratio_to_bare'] or 'n/a'}x bare)  {cold['symbols_per_s']} symbols/s  "
        f"({figures['files']} files, {figures['symbols']} symbols)"
    )
    typer.echo(f"warm: {warm['seconds']:.2f}s  {warm['writes']} writes")


@app.command("recall")
@handles_errors
def recall_bench(
    data: Annotated[Path, typer.Option("--data", help="The data set file.")],
    data_format: Annotated[
        str, typer.Option("--format", help="locomo (LoCoMo's own file) or generic.")
    ] = "locomo",
    k: Annotated[
        int, typer.Option("--k", min=10, max=200, help="Turns ranked per question (and in --out).")
    ] = 10,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the first arm set's ranked turn ids (JSONL)."),
    ] = None,
    arms: Annotated[
        str, typer.Option("--arms", help=f"Comma-separated arm sets: {', '.join(ARM_SETS)}.")
    ] = ",".join(ARM_SETS),
    as_json: JsonOption = False,
) -> None:
    """Turn-level retrieval: fused and every arm alone, beside BM25Okapi and a Lucene BM25."""
    dataset = load(data, data_format)
    arm_sets = [name.strip() for name in arms.split(",") if name.strip()]
    total = sum(len(c.questions) for c in dataset.conversations) * len(arm_sets)
    with progress_bar(as_json) as bar:
        task = bar.add_task("questions", total=total)
        figures = run_recall_bench(dataset, k, out, lambda n: bar.advance(task, n), arm_sets)
    if as_json:
        print_json(figures)
        return
    typer.echo(
        f"{figures['data']}: {figures['conversations']} conversations, {figures['turns']} turns, "
        f"{figures['questions']} questions ({figures['dropped_questions']} dropped, "
        f"{len(figures['dropped_evidence'])} evidence ids dropped); ingest "
        f"{figures['ingest_seconds']}s"
    )
    for name in [*arm_sets, *BASELINES]:
        overall = figures[name]["overall"]
        latency = figures[name]["latency_ms"]
        cells = "  ".join(f"{metric} {value:.3f}" for metric, value in overall.items())
        typer.echo(f"{name:<11} {cells}  p50 {latency['p50']}ms p95 {latency['p95']}ms")
    best = figures["best_baseline"]
    for name in arm_sets:
        gain = figures[name]["overall"]["R@10"] - figures[best]["overall"]["R@10"]
        typer.echo(f"{name} R@10 against the better baseline ({best}): {gain:+.3f}")


def _counts(text: str, option: str) -> list[int]:
    """A comma-separated list of positive counts (``--beliefs 10000,100000``)."""
    try:
        counts = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise InvalidInput(
            f"--{option}: give one or more positive counts, comma-separated (1,2,4)",
            field=option,
            rule="positive_int_list",
        )
    return sorted(set(counts))


@app.command()
@handles_errors
def scale(
    beliefs: Annotated[
        str,
        typer.Option(
            help="Beliefs to write: one count, or several for a growth curve (10000,100000)."
        ),
    ] = "100000",
    projects: Annotated[int, typer.Option(min=1, help="Projects they spread over.")] = 10,
    queries: Annotated[int, typer.Option(min=1, help="Recall queries to time per size.")] = 1_000,
    embedder: Annotated[
        str,
        typer.Option(
            help=(
                "minilm (the real model), hashed (cheap word hashing, for sizes MiniLM is "
                f"too slow for), or auto: MiniLM up to {REAL_EMBEDDER_MAX:,}, hashed above."
            )
        ),
    ] = "auto",
    as_json: JsonOption = False,
) -> None:
    """Ingest and recall p50/p95 as memory grows: memory, FAISS and store size per size.

    One size prints its figures (--json: one object); several print one line each
    as each size ends (--json: {"sizes": [...]}, smallest first). When a larger size
    fails, the sizes done are printed before the error ({"sizes": [...], "complete":
    false} with --json).
    """
    sizes = _counts(beliefs, "beliefs")
    done: list[dict[str, Any]] = []
    with progress_bar(as_json) as bar:
        tasks: dict[tuple[int, str], TaskID] = {}
        for size in sizes:
            expected = {
                "write": size,
                "supersede": int(size * SUPERSEDED_SHARE),
                "catch up": None,
                "view from empty": None,
            }
            for stage, total in {**expected, "recall": queries}.items():
                tasks[size, stage] = bar.add_task(f"{size:,}: {stage}", total=total)

        def finished(figures: dict[str, Any]) -> None:
            done.append(figures)
            if not as_json:
                for line in _scale_lines(figures):
                    bar.console.print(line, markup=False, highlight=False, soft_wrap=True)

        try:
            run_growth_bench(
                sizes,
                projects,
                queries,
                embedder,
                progress=lambda size, stage, n: bar.advance(tasks[size, stage], n),
                finished=finished,
            )
        except Exception:
            if as_json and done:
                print_json({"sizes": done, "complete": False})
            raise
    if as_json:
        print_json(done[0] if len(done) == 1 else {"sizes": done})


def _scale_lines(each: dict[str, Any]) -> list[str]:
    """One size's figures in words."""
    ingest, recall, built = each["ingest"], each["recall"], each["view_from_empty"]
    fresh = each["fresh_client_rss_mb"]
    store = each["neo4j_store_bytes"]
    store_text = (
        f"{store / 2**20:,.0f} MB (+{each['neo4j_store_growth_bytes'] / 2**20:,.0f} MB)"
        if store is not None
        else "not measured (the server is not the managed one)"
    )
    return [
        f"{each['beliefs']:,} beliefs in {each['projects']} projects "
        f"({each['superseded']:,} superseded), embedder {each['embedder']}",
        f"  ingest: {ingest['beliefs_per_s']}/s written and embedded, "
        f"{ingest['beliefs_per_s_with_catch_up']}/s with the views caught up "
        f"({ingest['catch_up_seconds']}s; the embedder alone "
        f"{ingest['embedder_alone_per_s']}/s, ratio "
        f"{ingest['with_catch_up_over_embedder_alone']}); "
        f"{ingest['supersessions_per_s']} supersessions/s",
        f"  a view built from empty: {built['vectors']:,} stored vectors in "
        f"{built['seconds']}s, {built['vectors_per_s']:,}/s "
        f"({built['over_embedder_alone']}x the embedder alone), "
        f"{built['texts_embedded']} texts embedded",
        f"  recall: p50 {recall['p50_ms']} ms, p95 {recall['p95_ms']} ms "
        f"({recall['p95_over_p50']}x p50) over {recall['queries']}",
        "  recall steps (p50 ms, from the traces; some run side by side): "
        + ", ".join(f"{step} {ms}" for step, ms in recall["step_p50_ms"].items()),
        f"  client memory {each['client_rss_mb']} MB (process peak so far "
        f"{each['peak_rss_mb']} MB); "
        f"FAISS {each['faiss_bytes'] / 2**20:,.1f} MB; "
        f"lexical file {each['lexical_file_bytes'] / 2**20:,.1f} MB; Neo4j store {store_text}",
        "  client memory after each stage: "
        + ", ".join(f"{stage} {mb} MB" for stage, mb in each["client_rss_mb_after"].items()),
        f"  a new client process serving it: {fresh['serving_mb']} MB after "
        f"{fresh['recalls']} recalls (peak {fresh['peak_mb']} MB)",
    ]


@app.command()
@handles_errors
def agents(
    processes: Annotated[
        str, typer.Option(help="Agent processes at once: one count or several (1,2,4,8).")
    ] = "1,2,4,8",
    seconds: Annotated[float, typer.Option(min=1, help="How long each count runs.")] = 30,
    beliefs: Annotated[
        int, typer.Option(min=1, help="Beliefs written first, for the recalls to search.")
    ] = 2_000,
    embedder: Annotated[
        str, typer.Option(help=f"{' or '.join(EMBEDDERS)} (cheap word hashing).")
    ] = "minilm",
    bulk: Annotated[
        bool, typer.Option(help="Last, one agent again beside a bulk writer (1,000-row batches).")
    ] = True,
    as_json: JsonOption = False,
) -> None:
    """Many agents on one server: 80% recalls, 20% writes; throughput, p95, clock waits.

    After each count a check reads the principal back (seqs unique, one event each,
    no write lost or duplicated, each agent's writes in seq order).
    """
    counts = _counts(processes, "processes")
    with progress_bar(as_json) as bar:
        task = bar.add_task("starting", total=None)
        figures = run_agents_bench(
            counts,
            seconds,
            beliefs,
            embedder,
            bulk,
            progress=lambda stage: bar.update(task, description=stage),
        )
    if as_json:
        print_json(figures)
        return
    arithmetic = f" ({figures['arithmetic']})" if figures["arithmetic"] else ""
    typer.echo(
        f"{figures['seed_beliefs']:,} beliefs to start with, embedder "
        f"{figures['embedder']}{arithmetic}, {figures['recall_share']:.0%} recalls"
    )
    beside = figures["beside_bulk_writer"]
    for each in figures["counts"] + ([beside] if beside else []):
        check = each["check"]
        verdict = "passed" if check["passed"] else f"FAILED {check}"
        alongside = " beside a bulk writer" if each is beside else ""
        typer.echo(
            f"{each['processes']} process(es){alongside}: {each['operations_per_s']} ops/s "
            f"over {each['seconds']} s; errors {each['errors']}; check {verdict}"
        )
        for name in ("recall", "episode", "belief", "clock_stamp", "bulk_batches"):
            if each.get(name) is None:
                continue
            spread = each[name]
            typer.echo(
                f"  {name:<12} n={spread['count']:<6} p50 {spread['p50_ms']} ms, "
                f"p95 {spread['p95_ms']} ms"
            )
        cpu = each["cpu_ms_per_op"]
        server = "not read (not a server graphmem runs here)"
        if cpu["server"] is not None:
            server = f"{cpu['server']} ms"
        typer.echo(
            f"  CPU per operation: agents {cpu['agents']} ms (embedder {cpu['embedder']} ms), "
            f"server {server}; {figures['cores']} cores"
        )


@app.command()
@handles_errors
def formation(
    sessions: Annotated[int, typer.Option(min=1, help="Sessions to consolidate.")] = 50,
    per_session: Annotated[
        int, typer.Option(min=1, max=30, help="Facts each session observes.")
    ] = 8,
    replay: Annotated[
        Path | None,
        typer.Option(
            help="Replay the recorded sessions of this directory (one .jsonl of hook "
            "payloads per session, labels.json beside them) instead of the synthetic pool.",
            file_okay=False,
        ),
    ] = None,
    host: Annotated[str, typer.Option(help="The host whose payloads --replay reads.")] = (
        "claude-code"
    ),
    as_json: JsonOption = False,
) -> None:
    """Does memory flatten? Synthetic repeated facts, or recorded sessions (--replay)."""
    if replay is not None:
        _replay_formation(replay, host, as_json)
        return
    with progress_bar(as_json) as bar:
        task = bar.add_task("consolidating", total=sessions)
        figures = run_formation_bench(
            sessions, per_session, progress=lambda n: bar.advance(task, n)
        )
    if as_json:
        print_json(figures)
        return
    counts = figures["live_beliefs_per_session"]
    typer.echo(f"live beliefs per session: {' '.join(str(n) for n in counts)}")
    growth = figures["growth_per_session"]
    typer.echo(
        f"growth per session: first fifth {growth['first_fifth']}, "
        f"last fifth {growth['last_fifth']}"
    )
    typer.echo(
        f"{figures['live_beliefs']} live beliefs for {figures['facts_seen']} facts seen "
        f"({figures['observations']} observations); duplicate rate "
        f"{figures['duplicate_rate']}; merges {figures['merges']} "
        f"({figures['wrong_merges']} wrong)"
    )
    timing = figures["consolidation_ms"]
    typer.echo(f"consolidation per episode: p50 {timing['p50']} ms, max {timing['max']} ms")


_REPLAY_ROWS = (
    ("growth (last third / first third)", "growth_ratio"),
    ("duplicate rate", "duplicate_rate"),
    ("precision", "precision"),
    ("consequential recall: formed", "consequential_recall.formed"),
    ("consequential recall: injected", "consequential_recall.injected"),
    ("dead-end recall", "dead_end_recall"),
    ("contradictions unresolved", "contradictions_unresolved"),
    ("no-fabrication", "no_fabrication"),
    ("hostile beliefs", "hostile_beliefs"),
    ("injected tokens per prompt: median", "injected_tokens_median"),
    ("injected tokens per prompt: p95", "injected_tokens.per_prompt_p95"),
    ("injected tokens per session: median", "injected_tokens.per_session_median"),
    ("prompts injected that should not be", "unwanted_injections"),
    ("memories formed / live at the end", "formed_live"),
    ("ms per session (median) / per event", "ms"),
)


def _field(figures: dict[str, Any], key: str) -> object:
    if key == "formed_live":
        return f"{figures['formed']} / {figures['live']}"
    if key == "ms":
        return f"{figures['ms_per_session']} / {figures['ms_per_event']}"
    value: Any = figures
    for part in key.split("."):
        value = value[part]
    return "-" if value is None else value


def _replay_formation(directory: Path, host: str, as_json: bool) -> None:
    total = len(list(directory.glob("*.jsonl"))) if directory.is_dir() else 0
    with progress_bar(as_json) as bar:
        task = bar.add_task("replaying sessions", total=total)
        figures = run_replay_bench(directory, host, progress=lambda n: bar.advance(task, n))
    if as_json:
        print_json(figures)
        return
    typer.echo(
        f"{figures['sessions']} sessions, {figures['projects']} projects, "
        f"{figures['events']} events ({figures['unreadable_lines']} unreadable lines)"
    )
    typer.echo(f"{'':<38} {'graphmem':>12} {'raw capture':>12}")
    for label, key in _REPLAY_ROWS:
        ours, raw = _field(figures, key), _field(figures["baseline"], key)
        typer.echo(f"{label:<38} {ours!s:>12} {raw!s:>12}")
    detector = figures["duplicate_detector"]
    if "by_threshold" in detector:
        typer.echo(
            f"duplicate detector on {detector['pairs']} labelled pairs "
            f"({detector['positives']} same), precision / recall by cosine threshold "
            f"(used: {detector['threshold']}):"
        )
        for threshold, scores in detector["by_threshold"].items():
            typer.echo(f"  {threshold}: {scores['precision']} / {scores['recall']}")


@app.command()
@handles_errors
def consolidate(
    rounds: Annotated[int, typer.Option(min=1, max=20, help="Rounds to take medians of.")] = 3,
    as_json: JsonOption = False,
) -> None:
    """The largest episode the limits allow, consolidated, against a typical small one."""
    with progress_bar(as_json) as bar:
        task = bar.add_task("consolidating", total=rounds)
        figures = run_consolidate_bench(rounds, progress=lambda n: bar.advance(task, n))
    if as_json:
        print_json(figures)
        return
    typer.echo(
        f"largest episode ({figures['candidates']} candidates, at most "
        f"{figures['considered_at_most']} considered): median {figures['largest_s']} s, "
        f"max {figures['largest_max_s']} s, CPU {figures['largest_cpu_s']} s; "
        f"{figures['largest_created']} created, "
        f"{figures['largest_rejected']} held back"
    )
    typer.echo(
        f"baseline (a small episode): median {figures['small_s']} s; "
        f"ratio {figures['ratio']}x over {figures['rounds']} rounds"
    )


@app.command()
@handles_errors
def mcp(
    beliefs: Annotated[int, typer.Option(min=1, help="Beliefs to write.")] = 2_000,
    queries: Annotated[int, typer.Option(min=1, help="Recall queries to time.")] = 200,
    as_json: JsonOption = False,
) -> None:
    """Recall through `graphmem mcp` (stdio) against the client, same store and queries."""
    with progress_bar(as_json) as bar:
        task = bar.add_task("recalling", total=queries)
        figures = run_mcp_bench(beliefs, queries, lambda n: bar.advance(task, n))
    if as_json:
        print_json(figures)
        return
    direct, over_mcp = figures["direct"], figures["mcp_stdio"]
    typer.echo(f"{figures['queries']} recalls over {figures['beliefs']} beliefs")
    typer.echo(f"direct client:  p50 {direct['p50_ms']} ms  p95 {direct['p95_ms']} ms")
    typer.echo(f"MCP over stdio: p50 {over_mcp['p50_ms']} ms  p95 {over_mcp['p95_ms']} ms")
    typer.echo(
        f"overhead at p50: {figures['overhead_p50_ms']} ms (x{figures['ratio_p50']}); "
        f"rendered mismatches: {figures['rendered_mismatches']}"
    )


@app.command()
@handles_errors
def trust(
    root: Annotated[
        Path | None,
        typer.Option("--root", help="The graphmem checkout whose corpora are read."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Secret finder and injection scan on labelled corpora, beside detect-secrets."""
    figures = run_trust_bench(root) if root else run_trust_bench()
    if as_json:
        print_json(figures)
        return
    typer.echo(f"detected (positives)  {'graphmem':>9} {'detect-secrets':>15}")
    for family, row in figures["positives"].items():
        theirs = "-" if row["detect_secrets"] is None else f"{row['detect_secrets']}/{row['items']}"
        missed = f"  missed: {', '.join(row['missed'])}" if row["missed"] else ""
        typer.echo(f"{family:<40} {row['graphmem']:>4}/{row['items']:<4} {theirs:>10}{missed}")
    typer.echo(f"false positives (items flagged)  {'secret':>7} {'injection':>9} {'d-s':>5}")
    for corpus, row in figures["negatives"].items():
        typer.echo(
            f"{corpus:<42} {row['items']:>5} {row['secret']:>5} {row['injection']:>9} "
            f"{row['detect_secrets']:>5}"
        )
    cost = figures["cost_ms_per_kb"]
    typer.echo(
        f"cost over {figures['kb']} KB: secrets {cost['secrets']} ms/KB, injection "
        f"{cost['injection']} ms/KB (detect-secrets {figures['detect_secrets_version']})"
    )


@app.command()
@handles_errors
def hooks(
    events: Annotated[
        int,
        typer.Option(
            min=1, help="Events timed per transport (--inject: rounds per size and transport)."
        ),
    ] = 200,
    root: Annotated[
        Path,
        typer.Option("--root", help="The graphmem checkout whose recorded sessions are replayed."),
    ] = HOOKS_ROOT,
    inject: Annotated[
        bool,
        typer.Option(
            "--inject",
            help="Time SessionStart and UserPromptSubmit answered with context, with "
            "--beliefs in the project, and count the tokens injected.",
        ),
    ] = False,
    beliefs: Annotated[
        str,
        typer.Option(
            help="With --inject: beliefs in the project, one count or several (1000,100000)."
        ),
    ] = "1000",
    as_json: JsonOption = False,
) -> None:
    """The capture hook's wall time per event kind, on each transport beside its baseline.

    With --inject: SessionStart and UserPromptSubmit answered with context, per size
    (--json: {"sizes": [...]}, smallest first).
    """
    if inject:
        sizes = _counts(beliefs, "beliefs")
        with progress_bar(as_json) as bar:
            tasks = {
                (size, stage): bar.add_task(f"{size:,}: {stage}", total=total)
                for size in sizes
                for stage, total in {"write": size, "embed": size, "rounds": 2 * events}.items()
            }

            def finished(figures: dict[str, Any]) -> None:
                if not as_json:
                    text = "\n".join(inject_lines(figures))
                    bar.console.print(text, markup=False, highlight=False, soft_wrap=True)

            done = run_inject_sizes(
                sizes,
                events,
                progress=lambda size, stage, n: bar.advance(tasks[size, stage], n),
                finished=finished,
            )
        if as_json:
            print_json({"sizes": done})
        return
    with progress_bar(as_json) as bar:
        task = bar.add_task("hook events", total=2 * events)
        figures = run_hooks_bench(events, root, lambda n: bar.advance(task, n))
    if as_json:
        print_json(figures)
        return
    for line in _hooks_lines(figures):
        typer.echo(line)


_TRANSPORT_NAMES = {
    "command_spool": "command, spool",
    "command_forward": "command, forward",
    "http": "HTTP",
}


def _hooks_lines(figures: dict[str, Any]) -> list[str]:
    """The hooks bench as a table: p50/p95 in ms per kind and transport, then the ratios."""
    transports = {name: figures["transports"][name] for name in _TRANSPORT_NAMES}
    baselines = figures["baselines"]
    rows: list[tuple[str, list[str]]] = [("p50 / p95 ms", list(_TRANSPORT_NAMES.values()))]
    for kind in figures["kinds"]:
        rows.append((kind, [_cell(transports[name]["by_kind"][kind]) for name in transports]))
    rows.append(("all", [_cell(transports[name]["all"]) for name in transports]))
    rows.append(
        ("baseline", [_cell(baselines[transports[name]["baseline"]]) for name in transports])
    )
    rows.append(
        (
            "ratio p50 / p95",
            [f"{t['ratio_p50']}x / {t['ratio_p95']}x" for t in transports.values()],
        )
    )
    lines = [f"{figures['command']}: {figures['events']} events per transport"]
    lines += [f"{label:<18}" + "".join(f"{cell:>26}" for cell in cells) for label, cells in rows]
    goals = figures["goals"]
    for name, transport in transports.items():
        goal = (
            f"p95 <= {goals['http_p95_over_bare']}x bare and < {goals['http_p95_ms']} ms"
            if name == "http"
            else f"p95 <= {goals['command_p95_over_interpreter']}x python -c pass"
        )
        verdict = "met" if transport["goal_met"] else "MISSED"
        lines.append(f"goal, {_TRANSPORT_NAMES[name]}: {goal}: {verdict}")
    lines.append(
        "baselines: python -c pass (commands), an authenticated GET answered 404 (HTTP); "
        f"{', '.join(figures['opted_out_kinds'])} ran in a capture = false work tree; "
        f"forwarding fell back {figures['forward_fell_back']} times"
    )
    return lines


def _cell(spread: dict[str, Any]) -> str:
    return f"{spread['p50_ms']} / {spread['p95_ms']} (n={spread['n']})"
