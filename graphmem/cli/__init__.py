"""The ``graphmem`` command line: a thin layer over the client."""

import typer

from graphmem.cli import (
    bench,
    browse,
    cache,
    code,
    demo,
    explore,
    feedback,
    formation,
    hook,
    install,
    memory,
    neo4j,
    recall,
    serve,
    sessions,
    transfer,
)

app = typer.Typer(
    name="graphmem",
    help="Knowledge-graph memory for coding agents, on Neo4j.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
memory.register(app)
code.register(app)
recall.register(app)
formation.register(app)
feedback.register(app)
explore.register(app)
demo.register(app)
browse.register(app)
serve.register(app)
transfer.register(app)
hook.register(app)
install.register(app)
app.add_typer(neo4j.app, name="neo4j")
app.add_typer(bench.app, name="bench")
app.add_typer(cache.app, name="cache")
app.add_typer(sessions.app, name="sessions")


def main() -> None:
    """Runs the CLI (the ``graphmem`` console script)."""
    app()
