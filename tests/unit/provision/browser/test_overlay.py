"""The Browser archive: the layout Neo4j extracts, and rebuilt only when inputs change."""

from __future__ import annotations

import zipfile
from pathlib import Path

from graphmem.provision.browser.overlay import ARCHIVE, install_overlay


def _jar(home: Path) -> Path:
    jar = home / "neo4j-browser-5.24.0.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
        archive.writestr("browser/index.html", "<title>Neo4j Browser</title>")
        archive.writestr("browser/assets/fonts/a.woff", b"font")
    (home / "classpath.txt").write_text(f"/x/neo4j-5.26.jar:{jar}:/x/other.jar\n")
    return jar


def test_the_archive_starts_with_browser_and_makes_each_directory_before_its_files(
    tmp_path: Path,
) -> None:
    _jar(tmp_path)
    command = install_overlay(tmp_path, 7474, "demo")
    assert "play http://127.0.0.1:7474/browser/graphmem/guide.html" in command
    with zipfile.ZipFile(tmp_path / ARCHIVE) as archive:
        names = archive.namelist()
        assert archive.read("browser/index.html") == b"<title>Neo4j Browser</title>"
        assert b"principal =&gt; &quot;demo&quot;" in archive.read("browser/graphmem/guide.html")
        assert b"node.Belief" in archive.read("browser/graphmem/graphmem.grass")
    assert names[0] == "browser/"
    assert not any(name.startswith("META-INF") for name in names)
    assert len(names) == len(set(names))  # Neo4j creates each entry once
    for position, name in enumerate(names):
        parent = name.rstrip("/").rpartition("/")[0] + "/"
        assert parent == "/" or names.index(parent) < position, name


def test_it_is_rebuilt_only_when_an_input_changes(tmp_path: Path) -> None:
    _jar(tmp_path)
    archive = tmp_path / ARCHIVE
    install_overlay(tmp_path, 7474, "demo")
    built = archive.stat().st_mtime_ns
    install_overlay(tmp_path, 8484, "demo")  # the port is in the command, not the archive
    assert archive.stat().st_mtime_ns == built
    install_overlay(tmp_path, 7474, "alice")
    assert archive.stat().st_mtime_ns != built
    with zipfile.ZipFile(archive) as opened:
        assert b"principal =&gt; &quot;alice&quot;" in opened.read("browser/graphmem/guide.html")
    assert [p.name for p in archive.parent.iterdir() if p.name.startswith("neo4j-browser")] == [
        "neo4j-browser.zip"
    ]
