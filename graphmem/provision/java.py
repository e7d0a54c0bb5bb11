"""Finds a Java runtime that Neo4j 5.26 supports (17 or 21)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from graphmem.errors import JavaNotFound

SUPPORTED_MAJORS = (17, 21)

_INSTALL_HINT = (
    "Install OpenJDK 17 (e.g. `apt-get install openjdk-17-jre-headless`) and/or set "
    "JAVA_HOME to it; or run Neo4j in Docker, or point graphmem at an existing server "
    "with GRAPHMEM_NEO4J_URI."
)


@dataclass(frozen=True)
class JavaRuntime:
    """A java executable and its major version."""

    path: Path
    major: int


def parse_java_major(version_output: str) -> int | None:
    """Returns the major version from ``java -version`` output (``1.8`` → 8)."""
    match = re.search(r'version "(\d+)(?:\.(\d+))?', version_output)
    if match is None:
        return None
    first = int(match.group(1))
    if first == 1 and match.group(2) is not None:
        return int(match.group(2))
    return first


def find_java() -> JavaRuntime:
    """Returns the Java runtime to run Neo4j with ($JAVA_HOME first, then PATH).

    Raises:
        JavaNotFound: No java, or one whose version Neo4j 5.26 does not support.
    """
    java_home = os.environ.get("JAVA_HOME")
    candidate = Path(java_home) / "bin" / "java" if java_home else None
    if candidate is None or not candidate.is_file():
        found = shutil.which("java")
        candidate = Path(found) if found else None
    if candidate is None:
        raise JavaNotFound(f"No Java runtime found. {_INSTALL_HINT}", rule="java_installed")
    result = subprocess.run(
        [str(candidate), "-version"], capture_output=True, text=True, timeout=30, check=False
    )
    major = parse_java_major(result.stderr + result.stdout)
    if major not in SUPPORTED_MAJORS:
        raise JavaNotFound(
            f"{candidate} is Java {major}; Neo4j 5.26 runs on Java 17 or 21. {_INSTALL_HINT}",
            rule="java_version",
            java=str(candidate),
            major=major,
        )
    return JavaRuntime(candidate, major)
