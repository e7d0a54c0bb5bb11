"""Scripted broken runs for the injection tests: a failure, a reverted try, the fix.

Each scenario is one coding session in the shapes of Claude Code's hooks reference
(:class:`Script` of ``tests/data/sessions/generate.py``): a command fails with a
distinctive error, an edit meant to fix it fails the same way and is reverted, another
edit fixes it, and the command passes. The outputs are what such tools print.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "data" / "sessions"))

from generate import Script


@dataclass(frozen=True)
class Scenario:
    """One broken run and what a later session should be told about it."""

    name: str
    command: str
    failure: str
    file: str
    source: str
    tried: tuple[str, str]
    fixed: tuple[str, str]
    passing: str
    error_prompt: str
    """A user's prompt that describes the same error in their own words."""
    distinctive: str
    """Text of the tried edit that the dead end must name."""

    def broken_run(self, session_id: str, cwd: str) -> list[dict[str, Any]]:
        """Session 1: fail, try and revert, fix, pass, end."""
        s = Script(session_id, cwd)
        s.start()
        s.prompt(f"`{self.command}` is failing, please fix it.")
        s.bash_fail(self.command, "Run the checks", 1, self.failure, 900)
        s.read(self.file, self.source)
        tried = s.edit(self.file, self.source, *self.tried)
        s.bash_fail(self.command, "Run the checks again", 1, self.failure, 900)
        s.edit(self.file, tried, self.tried[1], self.tried[0])  # the try, reverted
        s.edit(self.file, self.source, *self.fixed)
        s.bash(self.command, "Run the checks", self.passing, 900)
        s.stop("Fixed; the first attempt did not help and was reverted.")
        s.end()
        return s.payloads


PYTHON = Scenario(
    name="python",
    command="python -m pytest",
    failure=(
        "============================= test session starts ==============================\n"
        "collected 4 items\n\ntests/test_money.py ...F\n\n"
        "=================================== FAILURES ===================================\n"
        "____________________________ test_round_half_even ______________________________\n"
        "    def test_round_half_even():\n>       assert to_cents(Decimal('2.675')) == 268\n"
        "E       decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]\n\n"
        "src/money.py:9: InvalidOperation\n"
        "=========================== short test summary info ============================\n"
        "FAILED tests/test_money.py::test_round_half_even - decimal.InvalidOperation: "
        "[<class 'decimal.ConversionSyntax'>]\n"
        "========================= 1 failed, 3 passed in 0.04s ==========================\n"
    ),
    file="src/money.py",
    source=(
        "from decimal import Decimal, ROUND_HALF_EVEN\n\n\n"
        "def to_cents(amount: Decimal) -> int:\n"
        '    """Whole cents, rounded half-even."""\n'
        '    cents = Decimal(str(amount).replace(",", "")) * 100\n'
        "    return int(cents.quantize(Decimal('1'), rounding=ROUND_HALF_EVEN))\n"
    ),
    tried=(
        '    cents = Decimal(str(amount).replace(",", "")) * 100\n',
        "    cents = Decimal(float(amount)) * 100\n",
    ),
    fixed=(
        '    cents = Decimal(str(amount).replace(",", "")) * 100\n',
        "    cents = amount * 100\n",
    ),
    passing="collected 4 items\n\ntests/test_money.py ....\n\n4 passed in 0.03s\n",
    error_prompt="to_cents blows up with decimal.InvalidOperation ConversionSyntax in the "
    "money tests, what do we know about it?",
    distinctive="Decimal(float(amount))",
)

JAVASCRIPT = Scenario(
    name="javascript",
    command="npm test",
    failure=(
        "> cart@1.0.0 test\n> jest\n\nFAIL src/cart.test.js\n  ● total \u203a sums line items\n\n"
        "    TypeError: Cannot read properties of undefined (reading 'reduce')\n\n"
        "      3 | export function total(cart) {\n"
        "    > 4 |   return cart.items.reduce((sum, item) => sum + item.price, 0);\n"
        "        |                     ^\n\nTests: 1 failed, 3 passed, 4 total\n"
    ),
    file="src/cart.js",
    source=(
        "export function total(cart) {\n"
        "  return cart.items.reduce((sum, item) => sum + item.price, 0);\n}\n"
    ),
    tried=(
        "  return cart.items.reduce((sum, item) => sum + item.price, 0);\n",
        "  return (cart.items || []).reduce((sum, item) => sum + item.cost, 0);\n",
    ),
    fixed=(
        "  return cart.items.reduce((sum, item) => sum + item.price, 0);\n",
        "  return cart.lines.reduce((sum, line) => sum + line.price * line.qty, 0);\n",
    ),
    passing="> cart@1.0.0 test\n> jest\n\nPASS src/cart.test.js\nTests: 4 passed, 4 total\n",
    error_prompt="The cart total test fails with TypeError: Cannot read properties of "
    "undefined (reading 'reduce') again",
    distinctive="(cart.items || [])",
)

GO = Scenario(
    name="go",
    command="go test ./...",
    failure=(
        "# example.com/conf\n./parse.go:12:15: undefined: yaml.Unmarshall\n"
        "FAIL\texample.com/conf [build failed]\nFAIL\n"
    ),
    file="parse.go",
    source=(
        'package conf\n\nimport "gopkg.in/yaml.v3"\n\n'
        "func Parse(data []byte) (Config, error) {\n\tvar c Config\n"
        "\terr := yaml.Unmarshall(data, &c)\n\treturn c, err\n}\n"
    ),
    tried=(
        'import "gopkg.in/yaml.v3"\n',
        'import yaml "gopkg.in/yaml.v2"\n',
    ),
    fixed=(
        "\terr := yaml.Unmarshall(data, &c)\n",
        "\terr := yaml.Unmarshal(data, &c)\n",
    ),
    passing="ok  \texample.com/conf\t0.004s\n",
    error_prompt="go test says undefined: yaml.Unmarshall in parse.go, how was that solved?",
    distinctive="gopkg.in/yaml.v2",
)

CONFIG = Scenario(
    name="config",
    command="python manage.py check",
    failure=(
        "Traceback (most recent call last):\n"
        '  File "/srv/shop/manage.py", line 22, in <module>\n    main()\n'
        "django.core.exceptions.ImproperlyConfigured: The SECRET_KEY setting must not "
        "be empty.\n"
    ),
    file="shop/settings.py",
    source=(
        "import os\n\nDEBUG = os.environ.get('DEBUG') == '1'\n"
        "SECRET_KEY = os.environ.get('SHOP_SECRET_KEY', '')\n"
    ),
    tried=(
        "SECRET_KEY = os.environ.get('SHOP_SECRET_KEY', '')\n",
        "SECRET_KEY = os.environ.get('DJANGO_SECRET_KEY', '')\n",
    ),
    fixed=(
        "SECRET_KEY = os.environ.get('SHOP_SECRET_KEY', '')\n",
        "SECRET_KEY = os.environ.get('SHOP_SECRET_KEY') or 'dev-only-key-for-local-use'\n",
    ),
    passing="System check identified no issues (0 silenced).\n",
    error_prompt="manage.py check fails: ImproperlyConfigured, The SECRET_KEY setting "
    "must not be empty",
    distinctive="DJANGO_SECRET_KEY",
)

SCENARIOS = (PYTHON, JAVASCRIPT, GO, CONFIG)

UNRELATED_PROMPTS = (
    "Write a short haiku about autumn leaves for the release notes",
    "Rename the CONTRIBUTING file to CONTRIBUTING.md and fix its headings",
)
