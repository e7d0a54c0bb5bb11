"""`graphmem demo`: the main job on a local Neo4j it starts or reuses."""

import json
from collections.abc import Callable
from typing import Annotated

import typer

from graphmem.cli._common import DataDirOption, JsonOption, handles_errors, print_json
from graphmem.cli.neo4j import BoltPort, HttpPort
from graphmem.client import GraphMem
from graphmem.demo import BROWSER_QUERY, run_demo
from graphmem.provision.browser.commands import browser_principal, editor_url, param_command
from graphmem.provision.local import DEFAULT_BOLT_PORT, DEFAULT_HTTP_PORT
from graphmem.provision.manager import start_server
from graphmem.settings import resolve_data_dir


def _silent(line: str) -> None:
    """Drops narration (``--json`` prints one object instead)."""


def register(app: typer.Typer) -> None:
    """Adds the demo command to ``app``."""

    @app.command()
    @handles_errors
    def demo(
        principal: Annotated[
            str, typer.Option("--principal", help="Whose memory the demo writes.")
        ] = "demo",
        bolt_port: BoltPort = DEFAULT_BOLT_PORT,
        http_port: HttpPort = DEFAULT_HTTP_PORT,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Start (or reuse) Neo4j and walk through a two-project memory scenario.

        The ports are those of ``graphmem neo4j start`` (same options and variables).
        """
        directory = resolve_data_dir(data_dir)
        say: Callable[[str], None] = _silent if as_json else typer.echo
        say("Starting Neo4j (first run resolves the server jars with Maven)...")
        server = start_server(directory, bolt_port, http_port)
        say(f"Neo4j at {server.bolt_uri}\n")
        with GraphMem(principal, data_dir=directory) as memory:
            result = run_demo(memory, say, directory / "demo" / "billing-api")
        parameter = f":param principal => {json.dumps(principal)}"
        link = server.browser_url
        if link and principal != browser_principal():  # whose memory Browser opens on
            link = editor_url(link, param_command("principal", principal))
        if as_json:
            print_json(
                {
                    "episodes": result.episodes,
                    "beliefs": result.beliefs,
                    "anchor_states": result.anchor_states,
                    "browser_url": server.browser_url,
                    "browser_link": link,
                    "cypher": [parameter, BROWSER_QUERY],
                }
            )
            return
        say("\nExplore it in Neo4j Browser:")
        if link is None:  # a server of your own: no graphmem guide there
            say(f"  in your Neo4j Browser run  {parameter}")
            say(f"  then  {BROWSER_QUERY}")
            return
        say(f"  open   {link}")
        if server.password_file:
            say(f"  login  {server.user} / the password in {server.password_file}")
        if link != server.browser_url:
            say(f"  run    the editor's {parameter}")
        say("  then   graphmem's style and guide open by themselves: each slide runs a query")
        say("         (graphmem browse ID links one belief or episode)")
