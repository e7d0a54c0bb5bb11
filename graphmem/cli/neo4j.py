"""`graphmem neo4j start|stop|status|logs|install|backup|restore`: the local Neo4j server."""

from pathlib import Path
from typing import Annotated

import typer

from graphmem.cli._common import DataDirOption, JsonOption, handles_errors, print_json
from graphmem.errors import ServerError
from graphmem.provision.backup import backup as backup_server
from graphmem.provision.backup import restore as restore_server
from graphmem.provision.info import ServerInfo
from graphmem.provision.local import DEFAULT_BOLT_PORT, DEFAULT_HTTP_PORT, LocalServer
from graphmem.provision.manager import (
    managed_home,
    server_logs,
    server_status,
    start_server,
    stop_server,
)
from graphmem.settings import resolve_data_dir

app = typer.Typer(help="Run a local Neo4j 5.26 server (Docker, or Maven jars without Docker).")

BoltPort = Annotated[
    int, typer.Option(envvar="GRAPHMEM_NEO4J_BOLT_PORT", help="Bolt port on 127.0.0.1.")
]
HttpPort = Annotated[
    int, typer.Option(envvar="GRAPHMEM_NEO4J_HTTP_PORT", help="HTTP (Browser) port.")
]


def _describe(info: ServerInfo) -> str:
    lines = [
        f"Bolt:     {info.bolt_uri}",
        f"Browser:  {info.browser_url or '(not managed by graphmem)'}",
        f"route:    {info.route}" + (f" (pid {info.pid})" if info.pid else ""),
    ]
    if info.password_file:
        lines.append(f"login:    {info.user} / password in {info.password_file}")
    return "\n".join(lines)


@app.command()
@handles_errors
def install(data_dir: DataDirOption = None, as_json: JsonOption = False) -> None:
    """Resolve the Neo4j server jars from Maven Central now (start does it when needed)."""
    LocalServer(managed_home(resolve_data_dir(data_dir))).install()
    print_json({"installed": True}) if as_json else typer.echo("Neo4j server jars resolved")


@app.command()
@handles_errors
def start(
    bolt_port: BoltPort = DEFAULT_BOLT_PORT,
    http_port: HttpPort = DEFAULT_HTTP_PORT,
    timeout: Annotated[float, typer.Option(help="Seconds to wait for Bolt.")] = 180.0,
    data_dir: DataDirOption = None,
    as_json: JsonOption = False,
) -> None:
    """Start Neo4j (or find it running) and wait until Bolt answers."""
    info = start_server(resolve_data_dir(data_dir), bolt_port, http_port, timeout)
    if as_json:
        print_json(info.to_dict())
        return
    typer.echo("Neo4j is already running" if info.already_running else "Neo4j started")
    typer.echo(_describe(info))


@app.command()
@handles_errors
def stop(data_dir: DataDirOption = None, as_json: JsonOption = False) -> None:
    """Stop the Neo4j server graphmem started."""
    stopped = stop_server(resolve_data_dir(data_dir))
    if as_json:
        print_json({"stopped": stopped})
    else:
        typer.echo("Neo4j stopped" if stopped else "Neo4j was not running")


@app.command()
@handles_errors
def status(data_dir: DataDirOption = None, as_json: JsonOption = False) -> None:
    """Say whether the managed Neo4j runs, and how to reach it."""
    info, answers = server_status(resolve_data_dir(data_dir))
    if as_json:
        print_json({"running": answers, "server": info.to_dict() if info else None})
        return
    if info is None:
        typer.echo("no managed Neo4j yet: run `graphmem neo4j start`")
        raise typer.Exit(3)
    typer.echo(("running" if answers else "not running") + "\n" + _describe(info))
    if not answers:
        raise typer.Exit(3)


@app.command()
@handles_errors
def logs(
    lines: Annotated[int, typer.Option("-n", "--lines", help="How many lines.")] = 50,
    data_dir: DataDirOption = None,
    as_json: JsonOption = False,
) -> None:
    """Print the last lines of the managed Neo4j's log."""
    text = server_logs(resolve_data_dir(data_dir), lines)
    if as_json:
        print_json({"lines": text.splitlines()})
    elif text:
        typer.echo(text.rstrip("\n"))
    else:
        raise ServerError("no Neo4j log yet: run `graphmem neo4j start`")


BackupDir = Annotated[Path, typer.Argument(help="The backup's directory.")]


def _narrate(message: str) -> None:
    typer.echo(message, err=True)


@app.command()
@handles_errors
def backup(
    directory: BackupDir, data_dir: DataDirOption = None, as_json: JsonOption = False
) -> None:
    """Back up the managed Neo4j (database neo4j: all memory) into DIR.

    Community edition dumps offline: a running server is stopped for the dump and
    started again. DIR gets neo4j.dump and a manifest (version, migrations, sha256).
    """
    manifest = backup_server(resolve_data_dir(data_dir), directory, _narrate)
    if as_json:
        print_json({"directory": str(directory), "manifest": manifest.to_dict()})
    else:
        typer.echo(
            f"backed up to {directory} ({manifest.dump_bytes} bytes, sha256 "
            f"{manifest.dump_sha256[:12]}...)"
        )


@app.command()
@handles_errors
def restore(
    directory: BackupDir, data_dir: DataDirOption = None, as_json: JsonOption = False
) -> None:
    """Replace the managed Neo4j's database neo4j with the backup in DIR.

    Checks the manifest and checksum first; then stops the server, loads the dump,
    starts it and brings its schema up to date. The server's own users are kept.
    """
    report = restore_server(resolve_data_dir(data_dir), directory, _narrate)
    if as_json:
        print_json(
            {
                "directory": str(directory),
                "manifest": report.manifest.to_dict(),
                "applied_migrations": report.applied_migrations,
            }
        )
    else:
        typer.echo(f"restored the backup of {report.manifest.created_at} from {directory}")
