"""`graphmem browse`: a Neo4j Browser link that lands on one of graphmem's queries."""

import re
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from graphmem.cli._common import (
    DataDirOption,
    JsonOption,
    PrincipalOption,
    handles_errors,
    open_memory,
    print_json,
)
from graphmem.errors import ConfigError, InvalidInput, NotFound
from graphmem.models import ID_PATTERN
from graphmem.provision.browser.commands import editor_url, param_command, params_command
from graphmem.provision.browser.guide import runnable_text
from graphmem.settings import read_connection_record, resolve_data_dir, resolve_principal
from graphmem.store.browser_queries import BrowserQuery, browser_queries, browser_query

ValueOption = Annotated[str | None, typer.Option(show_default=False)]


def _browser_url(data_dir: Path) -> tuple[str, str | None]:
    """Returns the managed server's Browser URL and its password file."""
    record = read_connection_record(data_dir)
    if record is None or not record.get("http_url"):
        raise ConfigError(
            f"No Neo4j Browser is recorded under {data_dir}: start graphmem's server with "
            "`graphmem neo4j start` (a server of your own has its Browser at "
            "http://HOST:7474/browser/).",
            field="connection_record",
            rule="browser_url",
        )
    return str(record["http_url"]), record.get("password_file")


def _query_for(node_id: str, principal: str, data_dir: Path | None) -> BrowserQuery:
    """The neighbourhood query of a belief, or what an episode led to."""
    if not re.fullmatch(ID_PATTERN, node_id):
        raise InvalidInput(
            f"ID: {node_id!r} is not a graphmem id (a lowercase UUID)", field="ID", rule="id"
        )
    with open_memory(principal, data_dir) as memory:
        try:
            memory.get_belief(node_id)
            return browser_query("belief")
        except NotFound:
            pass
        try:
            memory.get_episode(node_id)
            return browser_query("episode")
        except NotFound:
            raise NotFound(
                f"no belief or episode {node_id} for this principal", field="ID", rule="exists"
            ) from None


def _parameters(
    query: BrowserQuery, node_id: str | None, given: dict[str, str | None]
) -> dict[str, str]:
    values: dict[str, str] = {}
    for parameter in query.parameters:
        value = node_id if parameter == "id" else given.get(parameter)
        if value is None:
            option = "ID" if parameter == "id" else f"--{parameter}"
            what = query.help.get(parameter, "")
            raise InvalidInput(
                f"{option}: the {query.name} query needs ${parameter} ({what})",
                field=parameter,
                rule="required",
            )
        values[parameter] = value
    return values


def register(app: typer.Typer) -> None:
    """Adds the browse command to ``app``."""

    @app.command()
    @handles_errors
    def browse(
        node_id: Annotated[
            str | None,
            typer.Argument(metavar="[ID]", help="A belief or episode id: its neighbourhood."),
        ] = None,
        query: Annotated[
            str | None, typer.Option("--query", help="One of graphmem's Browser queries.")
        ] = None,
        project: Annotated[str | None, typer.Option(help="$project, for --query project.")] = None,
        subject: Annotated[str | None, typer.Option(help="$subject, for --query subject.")] = None,
        symbol: Annotated[str | None, typer.Option(help="$symbol, for --query symbol.")] = None,
        name: Annotated[str | None, typer.Option(help="$name, for --query mentions.")] = None,
        open_it: Annotated[bool, typer.Option("--open", help="Open the link too.")] = False,
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Print a Neo4j Browser link for a belief, an episode, a query or the guide.

        Browser opens with a command in its editor that sets the parameters; run it,
        then the query's block in graphmem's guide (it opens on login).
        """
        who = resolve_principal(principal)
        directory = resolve_data_dir(data_dir)
        base, password_file = _browser_url(directory)
        if node_id is not None and query is not None:
            raise InvalidInput("give an ID or --query, not both", field="query", rule="exclusive")
        chosen: BrowserQuery | None = None
        if node_id is not None:
            chosen = _query_for(node_id, who, data_dir)
        elif query is not None:
            chosen = browser_query(query)
        if chosen is None:
            values = {"principal": who}
            command = param_command("principal", who)
        else:
            given = {"project": project, "subject": subject, "symbol": symbol, "name": name}
            values = {"principal": who, **_parameters(chosen, node_id, given)}
            command = params_command(values)
        url = editor_url(base, command)
        slide = (
            None if chosen is None else [q.name for q in browser_queries()].index(chosen.name) + 2
        )
        if open_it:
            webbrowser.open(url)
        if as_json:
            print_json(
                {
                    "url": url,
                    "command": command,
                    "parameters": values,
                    "query": None if chosen is None else chosen.name,
                    "title": None if chosen is None else chosen.title,
                    "guide_slide": slide,
                    "cypher": None if chosen is None else runnable_text(chosen),
                }
            )
            return
        typer.echo(url)
        login = f" as neo4j (password in {password_file})" if password_file else ""
        typer.echo(f"Log in{login}: graphmem's style and guide load by themselves.")
        if chosen is None:
            typer.echo(
                f"Run the editor's command to read {who}'s memory; the guide lists the queries."
            )
        else:
            typer.echo(
                f"Run the editor's command (it sets {', '.join('$' + k for k in values)}), "
                f'then the play icon of "{chosen.title}" on slide {slide} of the guide.'
            )
