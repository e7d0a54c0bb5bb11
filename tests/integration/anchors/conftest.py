"""A small project on disk to index, and helpers to edit it."""

from __future__ import annotations

from pathlib import Path

import pytest

INVOICE = """\
class Invoice:
    def __init__(self, lines):
        self.lines = lines

    def total(self):
        return sum(line.cents for line in self.lines)


def render(invoice):
    return f"{invoice.total() / 100:.2f}"
"""

CART = """\
export class Cart {
  constructor() { this.items = [] }
  count() { return this.items.length }
}
"""


@pytest.fixture
def project_root(tmp_path: Path) -> Path:
    """A two-file source tree (no git)."""
    root = tmp_path / "src"
    (root / "billing").mkdir(parents=True)
    (root / "billing" / "invoice.py").write_text(INVOICE)
    (root / "web").mkdir()
    (root / "web" / "cart.js").write_text(CART)
    return root
