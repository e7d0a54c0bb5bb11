"""Browser commands and links: set parameters, load graphmem's style sheet and guide."""

from __future__ import annotations

import json
from collections.abc import Mapping
from urllib.parse import quote

from graphmem.errors import ConfigError, InvalidInput
from graphmem.provision.browser.grass import parse_grass
from graphmem.settings import resolve_principal
from graphmem.store.browser_queries import STYLE_FILE, browser_style

DEFAULT_PRINCIPAL = "demo"
"""Whose memory Browser opens on when no principal is configured: the demo's."""
OVERLAY_DIR = "graphmem"
"""Where graphmem's files are served, under ``/browser/``."""
GUIDE_FILE = "guide.html"


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


def docker_post_connect_command(principal: str) -> str:
    """``browser.post_connect_cmd`` for the Docker route, whose Browser has no overlay.

    The style sheet goes inline, as JSON (Browser reads JSON first; it has no ``;``,
    which would split the command); there is no guide.
    """
    style = parse_grass(browser_style().decode("utf-8"))
    command = param_command("principal", principal).removeprefix(":")
    return f"{command}; style {json.dumps(style, separators=(',', ':'))}"
