"""Keys, normalisation, hashes and blob ids (design §4)."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from graphmem.anchors.keys import git_blob_id, normalise, symbol_hash
from graphmem.content import split_key, symbol_key


def test_key_format_and_collision_suffix() -> None:
    key = symbol_key("python", "billing/invoice.py", "Invoice.total", "method")
    assert key == "python:billing/invoice.py::Invoice.total#method"
    assert symbol_key("java", "A.java", "A.f", "method", 2) == "java:A.java::A.f#method~2"
    assert split_key(key) == ("python", "billing/invoice.py", "Invoice.total", "method")


def test_normalisation() -> None:
    assert normalise("\n\r\n  def f():  \r\n      return 1\t\n\n") == "  def f():\n      return 1"
    assert symbol_hash("def f():\n    return 1\n") == symbol_hash("\ndef f():   \r\n    return 1")
    assert symbol_hash("def f():\n    return 1") != symbol_hash("def f():\n  return 1")
    digest = hashlib.sha256(b"x = 1").hexdigest()
    assert symbol_hash("x = 1") == f"sha256:v1:{digest}"


def test_blob_id_matches_git(tmp_path: Path) -> None:
    data = "print('héllo')\n".encode()
    (tmp_path / "f.py").write_bytes(data)
    expected = subprocess.run(
        ["git", "hash-object", str(tmp_path / "f.py")], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert git_blob_id(data) == expected
