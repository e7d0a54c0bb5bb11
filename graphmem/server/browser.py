"""graphmem in Neo4j Browser: the exploration queries, their guide, and the overlay.

Neo4j serves Browser from ``HOME/web/neo4j-browser.zip`` when that file exists (it
extracts the archive and serves the directory named by its first entry at
``/browser``), otherwise from the Browser jar on its classpath. :func:`install_overlay`
builds that archive from the jar's ``browser/`` tree plus graphmem's style sheet and
a guide generated from ``queries/browser/*.cypher``, so both are served same-origin at
``/browser/graphmem/``; :func:`post_connect_command` is what Browser runs on login.

Only query *text* is handled here; the queries run in Browser (or in store/ tests).
Parameter values reach Browser as ``:param`` / ``:params`` commands, never as Cypher.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from graphmem._resources import data_path
from graphmem.errors import ConfigError, InvalidInput, ServerError
from graphmem.settings import resolve_principal

DEFAULT_PRINCIPAL = "demo"
"""Whose memory Browser opens on when no principal is configured: the demo's."""
OVERLAY_DIR = "graphmem"
"""Where graphmem's files are served, under ``/browser/``."""
STYLE_FILE = "graphmem.grass"
GUIDE_FILE = "guide.html"
ARCHIVE = Path("web") / "neo4j-browser.zip"
"""The archive Neo4j looks for (setting ``internal.dbms.web_dir_path``, under HOME)."""
STAMP = Path("web") / "graphmem-overlay.sha256"
"""What the archive was built from; it matches no Browser archive pattern."""
GUIDE_ORDER = (
    "overview",
    "project",
    "subject",
    "symbol",
    "promotions",
    "supersession",
    "conflicts",
    "drifted",
    "episode",
    "belief",
)
"""The guide's order: wide views first, then the ones that open one node."""
_PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_DOCUMENTED = re.compile(r"^\$(\w+): (.*?)(?: \(demo: (.+)\))?$")


@dataclass(frozen=True)
class BrowserQuery:
    """One shipped exploration query, as its ``.cypher`` file states it."""

    name: str
    """The file's name without ``.cypher``; what ``graphmem browse --query`` takes."""
    title: str
    """The first comment line: what the query shows."""
    description: str
    """The other comment lines, joined."""
    parameters: tuple[str, ...]
    """Its ``$parameters`` other than ``principal``, in order of first use."""
    help: Mapping[str, str]
    """What each parameter is, from its ``// $name: ...`` comment line."""
    examples: Mapping[str, str]
    """Demo values, from ``(demo: ...)`` at the end of a parameter's comment line."""
    text: str
    """The whole statement, comments included."""


def _parse(name: str, text: str) -> BrowserQuery:
    comments = []
    for line in text.splitlines():
        if not line.startswith("//"):
            break
        comments.append(line.removeprefix("//").strip())
    if not comments:
        raise ConfigError(f"browser query {name!r} does not start with a // comment")
    help_: dict[str, str] = {}
    examples: dict[str, str] = {}
    description = []
    for comment in comments[1:]:
        documented = _DOCUMENTED.match(comment)
        if documented is None:
            description.append(comment)
            continue
        help_[documented[1]] = documented[2]
        if documented[3] is not None:
            examples[documented[1]] = documented[3]
    body = "\n".join(line for line in text.splitlines() if not line.startswith("//"))
    used = dict.fromkeys(_PARAMETER.findall(body))
    used.pop("principal", None)
    return BrowserQuery(
        name=name,
        title=comments[0],
        description=" ".join(description),
        parameters=tuple(used),
        help=help_,
        examples=examples,
        text=text.strip() + "\n",
    )


def browser_queries() -> list[BrowserQuery]:
    """Returns the shipped exploration queries in the guide's order.

    Raises:
        ConfigError: A query file does not start with a ``//`` comment.
    """
    directory = data_path("queries") / "browser"
    found = {path.stem: path for path in directory.glob("*.cypher")}
    order = [n for n in GUIDE_ORDER if n in found] + sorted(set(found) - set(GUIDE_ORDER))
    return [_parse(name, found[name].read_text(encoding="utf-8")) for name in order]


def browser_query(name: str) -> BrowserQuery:
    """Returns the shipped exploration query ``name``.

    Raises:
        InvalidInput: No such query; the message lists the valid names.
    """
    queries = {query.name: query for query in browser_queries()}
    if name not in queries:
        raise InvalidInput(
            f"query: {name!r} is not a graphmem Browser query; use one of {', '.join(queries)}",
            field="query",
            rule="known",
            valid=list(queries),
        )
    return queries[name]


def browser_principal(principal: str | None = None) -> str:
    """Whose memory Browser opens on: ``principal``, else GRAPHMEM_PRINCIPAL, else demo.

    Raises:
        ConfigError: An explicit ``principal`` is not a valid name.
    """
    if principal is not None:
        return resolve_principal(principal)
    try:
        return resolve_principal()
    except ConfigError:
        return DEFAULT_PRINCIPAL


def _quoted(value: str) -> str:
    """A JSON string that survives Browser's URL handling (no raw ``&`` or ``#``)."""
    return json.dumps(value).replace("&", "\\u0026").replace("#", "\\u0023")


def param_command(name: str, value: str) -> str:
    """Returns the Browser command that sets one string parameter."""
    return f":param {name} => {_quoted(value)}"


def params_command(values: Mapping[str, str]) -> str:
    """Returns the Browser command that sets exactly these string parameters."""
    pairs = ", ".join(f"{_quoted(key)}: {_quoted(value)}" for key, value in values.items())
    return f":params {{{pairs}}}"


def editor_url(browser_url: str, command: str) -> str:
    """Returns a Browser URL that opens with ``command`` in its editor (run: one click).

    Browser 5.24 reads ``?cmd=edit&arg=...`` at start; it decodes the whole URL before
    splitting it on ``&`` and ``#``, so ``command`` must contain neither.

    Raises:
        InvalidInput: ``command`` contains ``&`` or ``#``.
    """
    if "&" in command or "#" in command:
        raise InvalidInput(
            "a Browser URL cannot carry '&' or '#' in its command",
            field="command",
            rule="url_safe",
        )
    return f"{browser_url}?cmd=edit&arg={quote(command, safe='')}"


def runnable_text(query: BrowserQuery) -> str:
    """Returns the query as the guide runs it: its title comment, then the statement."""
    body = [line for line in query.text.splitlines() if not line.startswith("//")]
    return "\n".join([f"// {query.title}", *body]).strip()


def _slide(body: str) -> str:
    opening = '    <slide class="row-fluid">\n      <div class="col-sm-12">\n'
    return f"{opening}{body}      </div>\n    </slide>\n"


def _runnable(command: str) -> str:
    return f'        <pre class="runnable">{html.escape(command)}</pre>\n'


def _query_slide(query: BrowserQuery) -> str:
    body = f"        <h3>{html.escape(query.title)}</h3>\n"
    body += f"        <p>{html.escape(query.description)}</p>\n"
    for parameter in query.parameters:
        what = html.escape(query.help.get(parameter, ""))
        body += f"        <p><code>${parameter}</code>: {what}</p>\n"
        if parameter in query.examples:
            body += _runnable(param_command(parameter, query.examples[parameter]))
    return body + _runnable(runnable_text(query))


def guide_html(queries: list[BrowserQuery], principal: str) -> str:
    """Returns the Browser guide: a slide to set ``$principal``, then one per query.

    Every command is a ``<pre class="runnable">``: clicking it puts it in the editor,
    its play icon runs it.
    """
    intro = "        <h3>graphmem: explore the memory graph</h3>\n"
    intro += (
        "        <p>Every query reads one principal's memory, <code>$principal</code>. "
        "This server opened on the one below; run the block to set it again, or "
        "<code>graphmem browse --principal NAME</code> for another.</p>\n"
    )
    intro += _runnable(param_command("principal", principal))
    intro += "        <p>The next slides, one query each:</p>\n        <ol>\n"
    intro += "".join(f"          <li>{html.escape(q.title)}</li>\n" for q in queries)
    intro += (
        "        </ol>\n        <p>A query's other parameters are set by the block above "
        "it (demo values) or by <code>graphmem browse ID</code>.</p>\n"
    )
    slides = _slide(intro) + "".join(_slide(_query_slide(q)) for q in queries)
    return (
        '<article class="guide">\n  <carousel class="deck container-fluid">\n'
        f"{slides}  </carousel>\n</article>\n"
    )


def overlay_url(http_port: int, file: str) -> str:
    """Where Browser fetches one of graphmem's overlay files."""
    return f"http://127.0.0.1:{http_port}/browser/{OVERLAY_DIR}/{file}"


def post_connect_command(http_port: int, principal: str) -> str:
    """Returns ``browser.post_connect_cmd``: set the principal, load style and guide.

    Browser runs each ``;``-separated command, with a ``:`` prefixed, once connected;
    each opens a frame, the last (the guide) on top.
    """
    return "; ".join(
        [
            param_command("principal", principal).removeprefix(":"),
            f"style {overlay_url(http_port, STYLE_FILE)}",
            f"play {overlay_url(http_port, GUIDE_FILE)}",
        ]
    )


def parse_grass(text: str) -> dict[str, dict[str, str]]:
    """Parses a style sheet as Browser 5.24 does (its ``parseGrass``, transcribed).

    Braces inside quotes are kept, quotes dropped; a declaration counts only when it
    has exactly one ``:``.
    """
    blocks: dict[str, str] = {}
    quoted = in_block = nested = False
    selector = body = ""
    for char in text:
        if char in "'\"":
            quoted = not quoted
            continue
        if char == "{" and not quoted:
            nested, in_block = (True, True) if in_block else (nested, True)
            continue
        if char == "}" and not quoted:
            if nested:
                nested = False
            else:
                in_block, blocks[selector], selector, body = False, body, "", ""
            continue
        if in_block:
            body += char
        elif not char.isspace():
            selector += char
    parsed: dict[str, dict[str, str]] = {}
    for key, block in blocks.items():
        pairs = [part.split(":") for part in block.split(";")]
        parsed[key] = {pair[0].strip(): pair[1].strip() for pair in pairs if len(pair) == 2}
    return parsed


def docker_post_connect_command(principal: str) -> str:
    """``browser.post_connect_cmd`` for the Docker route, whose Browser has no overlay.

    The style sheet goes inline, as JSON (Browser reads JSON first; it has no ``;``,
    which would split the command); there is no guide.
    """
    style = parse_grass((data_path("queries") / "browser" / STYLE_FILE).read_text())
    command = param_command("principal", principal).removeprefix(":")
    return f"{command}; style {json.dumps(style, separators=(',', ':'))}"


def browser_jar(home: Path) -> Path:
    """Returns the Neo4j Browser jar on the server's classpath (``HOME/classpath.txt``).

    Raises:
        ServerError: The classpath names no ``neo4j-browser`` jar.
    """
    classpath = (home / "classpath.txt").read_text(encoding="utf-8").strip().split(":")
    for entry in classpath:
        if Path(entry).name.startswith("neo4j-browser-") and entry.endswith(".jar"):
            return Path(entry)
    raise ServerError(
        f"No neo4j-browser jar on the classpath in {home / 'classpath.txt'}",
        rule="browser_jar",
    )


def overlay_files(principal: str) -> dict[str, bytes]:
    """Returns graphmem's files for the overlay, by their path inside the archive."""
    style = (data_path("queries") / "browser" / STYLE_FILE).read_bytes()
    guide = guide_html(browser_queries(), principal).encode("utf-8")
    return {
        f"browser/{OVERLAY_DIR}/{STYLE_FILE}": style,
        f"browser/{OVERLAY_DIR}/{GUIDE_FILE}": guide,
    }


def _directories(names: list[str]) -> list[str]:
    """Every directory of ``names``, parents first (Neo4j creates them one by one)."""
    found = {
        "/".join(n.split("/")[:depth]) + "/" for n in names for depth in range(1, n.count("/") + 1)
    }
    return sorted(found)


def write_archive(jar: Path, extra: Mapping[str, bytes], target: Path) -> None:
    """Writes Browser's archive: the jar's ``browser/`` tree plus ``extra``.

    Directory entries come first, ``browser/`` the very first (Neo4j serves the first
    entry's directory), each before what it holds; the file is replaced atomically.
    """
    partial = target.with_name(target.name + ".partial")
    with (
        zipfile.ZipFile(jar) as source,
        zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
    ):
        files = [
            info
            for info in source.infolist()
            if info.filename.startswith("browser/")
            and not info.is_dir()
            and info.filename not in extra
        ]
        for directory in _directories([info.filename for info in files] + list(extra)):
            archive.writestr(zipfile.ZipInfo(directory), b"")
        for info in files:
            archive.writestr(info.filename, source.read(info))
        for name, content in extra.items():
            archive.writestr(name, content)
    partial.replace(target)


def install_overlay(home: Path, http_port: int, principal: str) -> str:
    """Builds ``HOME/web/neo4j-browser.zip`` unless it is current; returns the login command.

    The archive is rebuilt only when its inputs change: the Browser jar, the style
    sheet, the queries or the principal (a digest of them is kept beside it).

    Returns:
        The value for ``browser.post_connect_cmd``.

    Raises:
        ServerError: The Browser jar is not on the classpath.
    """
    jar = browser_jar(home)
    extra = overlay_files(principal)
    digest = hashlib.sha256(f"{jar}\0{jar.stat().st_size}\0{jar.stat().st_mtime_ns}".encode())
    for name, content in sorted(extra.items()):
        digest.update(f"\0{name}\0".encode() + content)
    want = digest.hexdigest()
    archive, stamp = home / ARCHIVE, home / STAMP
    if not (archive.is_file() and stamp.is_file() and stamp.read_text().strip() == want):
        archive.parent.mkdir(parents=True, exist_ok=True)
        write_archive(jar, extra, archive)
        stamp.write_text(want + "\n", encoding="utf-8")
    return post_connect_command(http_port, principal)
