"""Browser links: commands set parameters; Browser 5.24's URL handling gets them back."""

from __future__ import annotations

import json
import re
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.errors import InvalidInput
from graphmem.provision.browser.commands import (
    browser_principal,
    editor_url,
    param_command,
    params_command,
)
from graphmem.store.browser_queries import browser_query

BASE = "http://127.0.0.1:7474/browser/"


def _browser_editor(url: str) -> str:
    """What Browser 5.24 puts in its editor for ``?cmd=edit&arg=...`` (its own steps)."""
    decoded = unquote(url.replace("+", " "))
    return "\n".join(re.findall(r"[?&]arg=([^&#]*)", decoded))


@given(st.dictionaries(st.sampled_from(["principal", "id", "subject"]), st.text(), min_size=1))
def test_a_params_link_gives_browser_back_the_values(values: dict[str, str]) -> None:
    command = params_command(values)
    url = editor_url(BASE, command)
    editor = _browser_editor(url)
    assert editor == command
    assert json.loads(editor.removeprefix(":params ")) == values


def test_a_param_command_quotes_its_value() -> None:
    assert param_command("principal", "demo") == ':param principal => "demo"'
    assert param_command("subject", 'a "b" & c #d') == (
        ':param subject => "a \\"b\\" \\u0026 c \\u0023d"'
    )


def test_editor_url_refuses_what_browser_would_cut() -> None:
    for command in ("MATCH (a) WHERE a.x = 1 & 2", "x # y"):
        with pytest.raises(InvalidInput) as caught:
            editor_url(BASE, command)
        assert caught.value.field == "command"


def test_an_unknown_query_names_the_field_and_the_valid_names() -> None:
    with pytest.raises(InvalidInput) as caught:
        browser_query("nope")
    assert caught.value.field == "query"
    assert "belief" in caught.value.details["valid"]
    assert "overview" in caught.value.message


def test_browser_principal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRAPHMEM_PRINCIPAL", raising=False)
    assert browser_principal() == "demo"
    monkeypatch.setenv("GRAPHMEM_PRINCIPAL", "alice")
    assert browser_principal() == "alice"
    assert browser_principal("bob") == "bob"
