"""The Browser guide, the login command and the style sheet, as Browser 5.24 reads them."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

from graphmem._resources import data_path
from graphmem.provision.browser.commands import (
    docker_post_connect_command,
    param_command,
    post_connect_command,
)
from graphmem.provision.browser.grass import parse_grass
from graphmem.provision.browser.guide import guide_html, runnable_text
from graphmem.store.browser_queries import GUIDE_ORDER, browser_queries


class _Guide(HTMLParser):
    """Collects the slides and each slide's runnable blocks."""

    def __init__(self) -> None:
        super().__init__()
        self.slides: list[list[str]] = []
        self._in_runnable = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "slide":
            self.slides.append([])
        elif tag == "pre" and ("class", "runnable") in attrs:
            self._in_runnable = True
            self.slides[-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self._in_runnable = False

    def handle_data(self, data: str) -> None:
        if self._in_runnable:
            self.slides[-1][-1] += data


def _parse(text: str) -> _Guide:
    guide = _Guide()
    guide.feed(text)
    return guide


def test_the_guide_order_names_every_query_file() -> None:
    files = sorted(path.stem for path in (data_path("queries") / "browser").glob("*.cypher"))
    assert sorted(GUIDE_ORDER) == files
    assert [query.name for query in browser_queries()] == list(GUIDE_ORDER)


def test_each_query_documents_its_parameters_and_reads_one_principal() -> None:
    for query in browser_queries():
        assert query.title and query.description, query.name
        assert set(query.help) == set(query.parameters), query.name
        assert set(query.examples) <= set(query.parameters)
        body = runnable_text(query)
        assert "$principal" in body, query.name
        # Every MATCH starts from a node of the principal, or one bound from it.
        for match in re.findall(r"MATCH (?:\w+ = )?\((\w*)(:\w+)?( \{[^}]*\})?", body):
            variable, label, properties = match
            assert "$principal" in properties or (variable and not label), (query.name, match)
        # Browser URLs cannot carry & or #; ids and names are all the queries take.
        assert "&" not in body and "#" not in body


def test_the_guide_opens_with_the_principal_then_one_slide_per_query() -> None:
    queries = browser_queries()
    guide = _parse(guide_html(queries, "alice@example"))
    assert len(guide.slides) == 1 + len(queries)
    assert guide.slides[0] == [':param principal => "alice@example"']
    for slide, query in zip(guide.slides[1:], queries, strict=True):
        demo_blocks = [param_command(name, value) for name, value in query.examples.items()]
        assert slide == [*demo_blocks, runnable_text(query)]
        assert slide[-1].startswith(f"// {query.title}\n")


def test_guide_text_is_escaped() -> None:
    text = guide_html(browser_queries(), "demo")
    assert "<>" not in text and "->" not in text  # Cypher's arrows and <> are entities
    assert html.escape("-[owns:BELONGS_TO]->") in text
    assert "<script" not in text


def test_the_login_command_sets_the_principal_then_loads_style_and_guide() -> None:
    command = post_connect_command(7474, "demo")
    assert command.split("; ") == [
        'param principal => "demo"',
        "style http://127.0.0.1:7474/browser/graphmem/graphmem.grass",
        "play http://127.0.0.1:7474/browser/graphmem/guide.html",
    ]
    assert "\n" not in command


def test_the_style_sheet_gives_every_rule_a_caption_and_no_empty_selector() -> None:
    grass = parse_grass((data_path("queries") / "browser" / "graphmem.grass").read_text())
    assert "" not in grass  # an empty selector crashes Browser on its next graph
    assert {"node", "relationship"} <= set(grass)
    for selector, properties in grass.items():
        assert re.fullmatch(r"(node|relationship)(\.\w+)?", selector), selector
        assert "caption" in properties, selector
    captions = {s: p["caption"] for s, p in grass.items()}
    assert captions["node.Belief"] == "{statement}"
    assert captions["node.Episode"] == "{title}"
    assert captions["node.Symbol"] == "{qualname}"
    assert captions["node.File"] == "{path}"
    assert captions["node.Project"] == "{name}"
    assert captions["node.Principal"] == "{id}"
    assert captions["node.MemoryEvent"] == "{type}"


def test_parse_grass_reads_as_browser_does() -> None:
    text = "node.A { caption: '{x}'; color: #fff; bad: a:b; }\nrelationship {caption: '<type>'}"
    assert parse_grass(text) == {
        "node.A": {"caption": "{x}", "color": "#fff"},
        "relationship": {"caption": "<type>"},
    }
    assert parse_grass("node { a: 1 } }") == {"node": {"a": "1"}, "": {}}  # stray brace


def test_the_docker_login_command_carries_the_style_as_json() -> None:
    command = docker_post_connect_command("demo")
    head, style = command.split("; style ")
    assert head == 'param principal => "demo"'
    assert ";" not in style and "\n" not in style
    assert json.loads(style)["node.Belief"]["caption"] == "{statement}"
