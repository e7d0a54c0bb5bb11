"""Serving commands: mcp (stdio), serve (HTTP) and token (the HTTP server's tokens)."""

from pathlib import Path
from typing import Annotated

import typer

from graphmem.admin import Admin
from graphmem.cli._common import (
    CeilingOption,
    DataDirOption,
    JsonOption,
    PrincipalOption,
    handles_errors,
    open_memory,
    print_json,
)
from graphmem.content import is_name
from graphmem.errors import ConfigError, InvalidInput, PortInUse
from graphmem.models import AccessToken
from graphmem.serve.tools import Defaults
from graphmem.settings import resolve_data_dir
from graphmem.trust.sensitivity import parse_sensitivity

DEFAULT_PORT = 8765

CodeRootOption = Annotated[
    Path | None,
    typer.Option(
        "--code-root",
        help="The only tree index_code may read (mcp: default the work tree; serve: "
        "index_code is offered only with it).",
        show_default=False,
    ),
]

token_app = typer.Typer(
    help="Bearer tokens for `graphmem serve` (each stands for one principal).",
    no_args_is_help=True,
)


def _default_project(project: str | None, tree: Path) -> str:
    if project is not None:
        return project
    if not is_name(tree.name):
        raise ConfigError(
            f"The work tree's name {tree.name!r} is not a valid project name; pass --project.",
            field="project",
            rule="pattern",
        )
    return tree.name


def _code_root(root: Path | None) -> Path | None:
    if root is None:
        return None
    if not root.is_dir():
        raise InvalidInput(f"--code-root: {root} is not a directory", field="code_root")
    return root.resolve()


def _token_json(record: AccessToken) -> dict[str, str | None]:
    return {
        "id": record.id,
        "principal": record.principal,
        "name": record.name,
        "created_at": record.created_at.isoformat(),
        "revoked_at": record.revoked_at.isoformat() if record.revoked_at else None,
    }


def register(app: typer.Typer) -> None:
    """Adds the serving commands to ``app``."""

    @app.command()
    @handles_errors
    def mcp(
        project: Annotated[
            str | None,
            typer.Option(help="Default project (default: the work tree's directory name)."),
        ] = None,
        code_root: CodeRootOption = None,
        ceiling: CeilingOption = "confidential",
        principal: PrincipalOption = None,
        data_dir: DataDirOption = None,
    ) -> None:
        """Serve one principal's memory over MCP on stdin/stdout (for an agent host)."""
        from graphmem.serve.stdio import run_stdio, work_tree

        tree = work_tree(Path.cwd())
        defaults = Defaults(
            project=_default_project(project, tree),
            code_root=_code_root(code_root) or tree,
            ceiling=parse_sensitivity(ceiling, "ceiling"),
        )
        with open_memory(principal, data_dir) as memory:
            typer.echo(
                f"graphmem mcp: principal {memory.principal}, project {defaults.project}",
                err=True,
            )
            run_stdio(memory, defaults)

    @app.command()
    @handles_errors
    def serve(
        host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(min=1, max=65535, help="Port.")] = DEFAULT_PORT,
        code_root: CodeRootOption = None,
        ceiling: CeilingOption = "confidential",
        data_dir: DataDirOption = None,
        local: Annotated[
            bool,
            typer.Option(
                "--local",
                help="The hooks' own server for this data directory and GRAPHMEM_PRINCIPAL: "
                "loopback, a free port, the local token (hooks start it themselves).",
            ),
        ] = False,
    ) -> None:
        """Serve memory over MCP streamable HTTP at /mcp, a principal per bearer token.

        Hook events are taken at /hooks/HOST and answered with context (docs/capture.md).
        """
        if local:
            from graphmem.serve.local import serve_local

            serve_local(resolve_data_dir(data_dir), parse_sensitivity(ceiling, "ceiling"))
            return

        import uvicorn

        from graphmem.provision.probe import port_is_free
        from graphmem.serve.clients import ClientPool
        from graphmem.serve.http import MCP_PATH, http_app
        from graphmem.settings import resolve_injection

        if not port_is_free(port, host):
            raise PortInUse(
                f"Port {port} on {host} is already in use; pick another with --port.",
                port=port,
                rule="port_free",
            )
        directory = resolve_data_dir(data_dir)
        with Admin(data_dir=data_dir) as admin:
            live = [t for t in admin.list_tokens() if not t.revoked]
            pool = ClientPool(admin.settings, directory)
            defaults = Defaults(
                code_root=_code_root(code_root), ceiling=parse_sensitivity(ceiling, "ceiling")
            )
            app = http_app(
                admin, pool, defaults, directory, host=host, injection=resolve_injection()
            )
            typer.echo(f"graphmem serve: http://{host}:{port}{MCP_PATH}", err=True)
            if not live:
                typer.echo(
                    "  no live tokens yet: every request gets 401 until you run "
                    "`graphmem token create --principal P`",
                    err=True,
                )
            try:
                uvicorn.run(app, host=host, port=port, log_level="warning")
            finally:
                pool.close()

    @token_app.command("create")
    @handles_errors
    def token_create(
        principal: Annotated[
            str, typer.Option(help="The principal the token stands for.", show_default=False)
        ],
        name: Annotated[str | None, typer.Option(help="A label, e.g. the host it is for.")] = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Create a token; it is printed this once and only its sha256 is kept."""
        with Admin(data_dir=data_dir) as admin:
            issued = admin.create_token(principal, name)
        if as_json:
            print_json({"id": issued.record.id, "principal": principal, "token": issued.secret})
            return
        typer.echo(issued.secret)
        typer.echo(
            f"token {issued.record.id} for principal {principal}: shown once, keep it now "
            "(revoke with `graphmem token revoke ID`)",
            err=True,
        )

    @token_app.command("list")
    @handles_errors
    def token_list(
        principal: Annotated[
            str | None, typer.Option(help="Only this principal's tokens.", show_default=False)
        ] = None,
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """List tokens (never their secrets), revoked ones included."""
        with Admin(data_dir=data_dir) as admin:
            records = admin.list_tokens(principal)
        if as_json:
            print_json([_token_json(record) for record in records])
            return
        for record in records:
            state = f"revoked {record.revoked_at.isoformat()}" if record.revoked_at else "live"
            typer.echo(
                f"{record.id}  {record.principal}  {record.name or '-'}  "
                f"created {record.created_at.isoformat()}  {state}"
            )

    @token_app.command("revoke")
    @handles_errors
    def token_revoke(
        token_id: Annotated[str, typer.Argument(metavar="ID", help="The token's id.")],
        data_dir: DataDirOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Revoke a token: the next request that carries it gets 401."""
        with Admin(data_dir=data_dir) as admin:
            record = admin.revoke_token(token_id)
        if as_json:
            print_json(_token_json(record))
        else:
            typer.echo(f"revoked {record.id} ({record.principal})")

    app.add_typer(token_app, name="token")
