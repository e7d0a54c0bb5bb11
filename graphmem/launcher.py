"""The ``graphmem`` console script: the hook's hot path first, the CLI otherwise.

``graphmem hook HOST`` runs once per agent-host event, so it must not pay for typer,
the client or the Neo4j driver: it is dispatched here before any of them is imported.
It first tries to hand the event to a running ``graphmem serve``
(:mod:`graphmem.capture.forward`, nothing else of graphmem loaded); only when that
does not take it is the capture path (:mod:`graphmem.capture.hook`) imported. Every
other command goes to the typer CLI.
"""

import sys


def main() -> None:
    """Runs ``graphmem hook HOST`` directly, anything else through the CLI."""
    if sys.argv[1:2] == ["hook"] and len(sys.argv) == 3 and not sys.argv[2].startswith("-"):
        from graphmem.capture.forward import forward

        sent = forward(sys.argv[2])
        if sent.taken:
            sys.exit(0)
        from graphmem.capture.hook import main as run_hook

        sys.exit(run_hook(sys.argv[2:], sent))
    from graphmem.cli import main as run_cli

    run_cli()
