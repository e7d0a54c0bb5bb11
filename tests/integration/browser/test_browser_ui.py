"""A real Neo4j Browser on graphmem's managed server: ready on login, every query draws.

Starts a LocalServer (Maven jars) on free ports so its overlay and neo4j.conf are the
real ones, writes demo memory, then drives Debian's Chromium with Playwright: log in,
and without pasting anything the style sheet and the guide arrive; each guide query
runs for the demo principal and draws nodes with graphmem's captions; `graphmem
browse ID` links land on the id queries. Screenshots go to GRAPHMEM_TEST_ARTIFACTS
(default: a pytest temporary directory); the path is printed.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright
from typer.testing import CliRunner

from graphmem import GraphMem
from graphmem.cli import app
from graphmem.provision.info import ServerInfo, write_connection_record
from graphmem.provision.local import LocalServer
from graphmem.provision.probe import free_port
from graphmem.store.browser_queries import BrowserQuery, browser_queries
from graphmem.store.ids import new_id
from tests.integration.browser.seed import Seeded, seed

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 60_000
FAILURE = re.compile(r"Neo\.\w+Error|ERROR|TypeError|Something went wrong|Could not")
BANNER = "collect information on product usage"
CAPTIONS = {
    "overview": "billing-api",
    "project": "Fix flaky",
    "subject": "rounds",
    "symbol": "Invoice.total",
    "promotions": "Money",
    "supersession": "rounds",
    "conflicts": "invoices",
    "drifted": "Invoice.total",
    "episode": "Fix flaky",
    "belief": "rounds",
    "mentions": "fin-212",
}
"""A caption fragment each query's graph shows (graphmem's style, not Browser's)."""


@dataclass(frozen=True)
class Running:
    info: ServerInfo
    seeded: Seeded
    password: str
    env: dict[str, str]


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    configured = os.environ.get("GRAPHMEM_TEST_ARTIFACTS")
    directory = Path(configured) if configured else tmp_path_factory.mktemp("browser-artifacts")
    directory.mkdir(parents=True, exist_ok=True)
    print(f"\nBrowser screenshots: {directory}")
    return directory


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """A managed server whose Browser opens on a fresh principal's demo memory."""
    home = tmp_path_factory.mktemp("browser-neo4j")
    principal = f"browser-{new_id()}"
    server = LocalServer(home, free_port(), free_port(), browser_principal=principal)
    info = server.start()
    try:
        password = server.password_file.read_text(encoding="utf-8").strip()
        data_dir = home / "graphmem-data"
        write_connection_record(data_dir, info)
        with GraphMem(principal, uri=info.bolt_uri, password=password, data_dir=data_dir) as memory:
            seeded = seed(memory, home / "workdir")
        env = {
            "GRAPHMEM_DATA_DIR": str(data_dir),
            "GRAPHMEM_NEO4J_URI": info.bolt_uri,
            "GRAPHMEM_NEO4J_PASSWORD": password,
            "GRAPHMEM_PRINCIPAL": principal,
        }
        yield Running(info, seeded, password, env)
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM.is_file(), f"{CHROMIUM} is missing: apt-get install -y chromium"
    with sync_playwright() as playwright:
        handle = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield handle
        handle.close()


def _frames(page: Page) -> Locator:
    return page.locator('[data-testid="frame"]')


def _guide(page: Page) -> Locator:
    """graphmem's guide frame (the newest, should there be two)."""
    command = page.locator('[data-testid="frameCommand"]', has_text="/graphmem/guide.html")
    return _frames(page).filter(has=command).first


def _log_in(page: Page, url: str, password: str) -> None:
    page.goto(url)
    page.locator('[data-testid="password"]').fill(password, timeout=TIMEOUT_MS)
    page.locator('[data-testid="username"]').fill("neo4j")
    page.locator('[data-testid="connect"]').click()


def _show_slide(page: Page, number: int) -> Locator:
    """Moves graphmem's guide to slide ``number`` (1-based); returns the guide."""
    guide = _guide(page)
    expect(guide).to_be_visible(timeout=TIMEOUT_MS)
    while (previous := guide.locator('[data-testid="previousSlide"]')).count():
        previous.click()
    for _ in range(number - 1):
        guide.locator('[data-testid="nextSlide"]').click()
    return guide


def _run_block(page: Page, guide: Locator, index: int, title: str) -> Locator:
    """Clicks the play icon of the guide's ``index``-th block; returns the new frame."""
    guide.locator("pre.runnable").nth(index).locator("i.fa-play-circle-o").click()
    frame = _frames(page).first
    expect(frame.locator('[data-testid="frameCommand"]')).to_contain_text(title)
    return frame


def _check_graph(frame: Locator, query: BrowserQuery) -> None:
    nodes = frame.locator("svg g.node")
    expect(nodes.first).to_be_attached(timeout=TIMEOUT_MS)
    expect(frame).not_to_contain_text(FAILURE)
    captions = " ".join(nodes.locator("text").all_text_contents())
    assert CAPTIONS[query.name] in captions, (query.name, captions)


def _browse(running: Running, *args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["browse", *args, "--json"], env=running.env)
    assert result.exit_code == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_browser_is_ready_on_login_and_every_query_draws(
    running: Running, browser: Browser, artifacts: Path
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    base = str(running.info.browser_url)
    _log_in(page, base, running.password)

    guide = _show_slide(page, 1)
    expect(_frames(page).filter(has_text=":style http")).to_contain_text("node.Belief")
    expect(_frames(page).filter(has_text="Successfully set your parameters")).to_contain_text(
        running.seeded.principal
    )
    expect(page.locator("body")).not_to_contain_text(BANNER)
    page.screenshot(path=artifacts / "01-login.png")

    queries = browser_queries()
    for slide, query in enumerate(queries, start=2):
        if "id" in query.parameters:
            continue  # graphmem browse ID sets $id, below
        guide = _show_slide(page, slide)
        for index, parameter in enumerate(query.parameters):  # the demo values
            _run_block(page, guide, index, f":param {parameter}")
        frame = _run_block(page, guide, len(query.parameters), query.title)
        _check_graph(frame, query)
        frame.screenshot(path=artifacts / f"{slide:02d}-{query.name}.png")

    for node_id in (running.seeded.episode_id, running.seeded.belief_id):
        link = _browse(running, node_id)
        page.goto(str(link["url"]))
        editor = page.locator('[data-testid="activeEditor"]')
        expect(editor).to_contain_text(":params", timeout=TIMEOUT_MS)
        expect(editor).to_contain_text(node_id)
        _show_slide(page, 1)  # logged in again, the guide reopened
        page.locator('[data-testid="editor-Run"]').click()
        expect(_frames(page).first).to_contain_text("Successfully set your parameters")
        query = next(q for q in queries if q.name == link["query"])
        slide = int(str(link["guide_slide"]))
        frame = _run_block(page, _show_slide(page, slide), 0, query.title)
        _check_graph(frame, query)
        frame.screenshot(path=artifacts / f"{slide:02d}-{query.name}.png")

    page.screenshot(path=artifacts / "99-last.png", full_page=True)
    expect(page.locator("body")).not_to_contain_text("Something went wrong")
    assert errors == []
