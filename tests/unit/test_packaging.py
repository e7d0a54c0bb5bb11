"""queries/, extractors/ and docker/ ship inside the wheel and are found from it."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_installed_wheel_finds_its_data(tmp_path: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
    )
    wheel = next(tmp_path.glob("graphmem-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in (
        "graphmem/_data/queries/belief/create.cypher",
        "graphmem/_data/queries/schema/001_constraints.cypher",
        "graphmem/_data/docker/neo4j-local/pom.xml",
        "graphmem/_data/docker/neo4j-local/neo4j-local",
        "graphmem/_data/docker/docker-compose.yml",
        "graphmem/_data/extractors/README.md",
        "graphmem/_data/extractors/python.scm",
        "graphmem/_data/queries/browser/graphmem.grass",
        "graphmem/vectors/wordpiece/vocab.txt",
        "graphmem/vectors/wordpiece/LICENSE",
        "graphmem/py.typed",
    ):
        assert expected in names
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
    )
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "from graphmem.store.cypher import queries_dir; print(queries_dir())",
        ],
        cwd=tmp_path,
        env={"PYTHONPATH": str(target)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert probe.stdout.strip() == str(target / "graphmem" / "_data" / "queries")
