"""The Browser guide: one slide to set ``$principal``, then one slide per query."""

from __future__ import annotations

import html

from graphmem.provision.browser.commands import param_command
from graphmem.store.browser_queries import BrowserQuery


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
