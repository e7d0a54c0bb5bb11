"""The archive Neo4j serves Browser from: the jar's Browser plus graphmem's files."""

from __future__ import annotations

import hashlib
import zipfile
from collections.abc import Mapping
from pathlib import Path

from graphmem.errors import ServerError
from graphmem.provision.browser.commands import (
    GUIDE_FILE,
    OVERLAY_DIR,
    post_connect_command,
)
from graphmem.provision.browser.guide import guide_html
from graphmem.settings import make_private_dir, private_file, write_private_text
from graphmem.store.browser_queries import STYLE_FILE, browser_queries, browser_style

ARCHIVE = Path("web") / "neo4j-browser.zip"
"""The archive Neo4j looks for (setting ``internal.dbms.web_dir_path``, under HOME)."""
STAMP = Path("web") / "graphmem-overlay.sha256"
"""What the archive was built from; it matches no Browser archive pattern."""


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
    style = browser_style()
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
    with (
        zipfile.ZipFile(jar) as source,
        private_file(target, "wb") as stream,
        zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
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
        make_private_dir(archive.parent)
        write_archive(jar, extra, archive)
        write_private_text(stamp, want + "\n")
    return post_connect_command(http_port, principal)
