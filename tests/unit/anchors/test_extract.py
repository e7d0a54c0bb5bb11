"""Per-language extraction: kinds, qualified names, collisions, stable hashes."""

from __future__ import annotations

import pytest

from graphmem.anchors.extract import extract_file
from graphmem.anchors.languages import LANGUAGES, language_for_path, load_language

SOURCES: dict[str, tuple[str, str, dict[str, str]]] = {
    # language: (path, source, {qualname#kind: parent qualname#kind or ""})
    "python": (
        "billing/invoice.py",
        "class Invoice:\n"
        "    def __init__(self):\n        self.lines = []\n"
        "    def total(self):\n        return sum(self.lines)\n"
        "    class Line:\n        def total(self):\n            return 0\n"
        "def helper():\n    def inner():\n        return 1\n    return inner()\n"
        "def helper():\n    return 2\n"
        "type Money = int\n",
        {
            "Invoice#class": "",
            "Invoice.__init__#constructor": "Invoice#class",
            "Invoice.total#method": "Invoice#class",
            "Invoice.Line#class": "Invoice#class",
            "Invoice.Line.total#method": "Invoice.Line#class",
            "helper#function": "",
            "helper.inner#function": "helper#function",
            "helper#function~2": "",
            "Money#type": "",
        },
    ),
    "javascript": (
        "src/cart.js",
        "class Cart {\n  constructor() { this.items = [] }\n  total() { return sum(this.items) }\n"
        "  add = (item) => this.items.push(item)\n}\n"
        "function sum(xs) { return xs.reduce((a, b) => a + b, 0) }\n"
        "const format = (n) => n.toFixed(2)\n"
        "function* ids() { yield 1 }\n",
        {
            "Cart#class": "",
            "Cart.constructor#constructor": "Cart#class",
            "Cart.total#method": "Cart#class",
            "Cart.add#method": "Cart#class",
            "sum#function": "",
            "format#function": "",
            "ids#function": "",
        },
    ),
    "typescript": (
        "src/money.ts",
        "namespace Billing {\n  export class Money {\n    constructor(public cents: number) {}\n"
        "    add(other: Money): Money { return new Money(this.cents + other.cents) }\n  }\n}\n"
        "interface Priced { price(): number }\n"
        "enum Currency { EUR, USD }\n"
        "type Cents = number\n"
        "abstract class Base { abstract run(): void }\n"
        "export function round(x: number): number { return Math.round(x) }\n",
        {
            "Billing#module": "",
            "Billing.Money#class": "Billing#module",
            "Billing.Money.constructor#constructor": "Billing.Money#class",
            "Billing.Money.add#method": "Billing.Money#class",
            "Priced#interface": "",
            "Priced.price#method": "Priced#interface",
            "Currency#enum": "",
            "Cents#type": "",
            "Base#class": "",
            "Base.run#method": "Base#class",
            "round#function": "",
        },
    ),
    "tsx": (
        "src/App.tsx",
        "export function App() { return <div>{label()}</div> }\n"
        "const label = () => 'hi'\n"
        "interface Props { title: string }\n",
        {"App#function": "", "label#function": "", "Props#interface": ""},
    ),
    "go": (
        "billing/invoice.go",
        "package billing\n"
        "type Invoice struct{ lines []int }\n"
        "type Totaler interface{ Total() int }\n"
        "type Cents = int\n"
        "type ID int\n"
        "func (i *Invoice) Total() int { return sum(i.lines) }\n"
        "func (i Invoice) Count() int { return len(i.lines) }\n"
        "func sum(xs []int) int { return 0 }\n",
        {
            "Invoice#class": "",
            "Totaler#interface": "",
            "Totaler.Total#method": "Totaler#interface",
            "Cents#type": "",
            "ID#type": "",
            "Invoice.Total#method": "",
            "Invoice.Count#method": "",
            "sum#function": "",
        },
    ),
    "rust": (
        "src/lib.rs",
        "mod billing {\n  pub struct Invoice { lines: Vec<u32> }\n"
        "  impl Invoice {\n    pub fn new() -> Self { Invoice { lines: vec![] } }\n"
        "    pub fn total(&self) -> u32 { sum(&self.lines) }\n  }\n"
        "  fn sum(xs: &[u32]) -> u32 { xs.iter().sum() }\n}\n"
        "pub trait Priced { fn price(&self) -> u32; }\n"
        "pub enum Currency { Eur }\n"
        "pub type Cents = u32;\n",
        {
            "billing#module": "",
            "billing.Invoice#class": "billing#module",
            "billing.Invoice.new#method": "billing#module",
            "billing.Invoice.total#method": "billing#module",
            "billing.sum#function": "billing#module",
            "Priced#interface": "",
            "Priced.price#method": "Priced#interface",
            "Currency#enum": "",
            "Cents#type": "",
        },
    ),
    "java": (
        "src/Invoice.java",
        "public class Invoice {\n  public Invoice() {}\n  int total() { return sum(1); }\n"
        "  int sum(int x) { return x; }\n  int sum(String s) { return 0; }\n"
        "  interface Line { int cents(); }\n  enum Kind { A, B }\n"
        "  record Pair(int a, int b) {}\n}\n",
        {
            "Invoice#class": "",
            "Invoice.Invoice#constructor": "Invoice#class",
            "Invoice.total#method": "Invoice#class",
            "Invoice.sum#method": "Invoice#class",
            "Invoice.sum#method~2": "Invoice#class",
            "Invoice.Line#interface": "Invoice#class",
            "Invoice.Line.cents#method": "Invoice.Line#interface",
            "Invoice.Kind#enum": "Invoice#class",
            "Invoice.Pair#class": "Invoice#class",
        },
    ),
    "c": (
        "src/money.c",
        "struct money { int cents; };\n"
        "typedef int cents_t;\n"
        "enum currency { EUR };\n"
        "static int *alloc(void) { return 0; }\n"
        "int total(int a) { return add(a, 1); }\n"
        "int add(int a, int b) { return a + b; }\n",
        {
            "money#class": "",
            "cents_t#type": "",
            "currency#enum": "",
            "alloc#function": "",
            "total#function": "",
            "add#function": "",
        },
    ),
}


def _symbols(lang: str, source: str | None = None) -> dict[str, tuple[str, str]]:
    path, default, _ = SOURCES[lang]
    language = load_language(lang)
    assert language is not None, f"{lang} grammar not installed"
    extraction = extract_file(language, path, (source or default).encode())
    assert extraction.error is None
    prefix = f"{lang}:{path}::"
    return {
        s.key.removeprefix(prefix): ((s.parent or "").removeprefix(prefix), s.hash)
        for s in extraction.symbols
    }


@pytest.mark.parametrize("lang", sorted(SOURCES))
def test_every_definition_with_qualified_name_kind_and_parent(lang: str) -> None:
    expected = SOURCES[lang][2]
    found = {key: parent for key, (parent, _) in _symbols(lang).items()}
    assert found == expected


def test_every_registered_language_has_a_fixture_and_suffix() -> None:
    assert {spec.name for spec in LANGUAGES} == set(SOURCES)
    for lang, (path, _, _) in SOURCES.items():
        spec = language_for_path(path)
        assert spec is not None and spec.name == lang


@pytest.mark.parametrize("lang", sorted(SOURCES))
def test_extraction_is_deterministic(lang: str) -> None:
    assert _symbols(lang) == _symbols(lang)


def test_hashes_stable_under_edits_elsewhere_and_collisions_keep_order() -> None:
    _, source, _ = SOURCES["python"]
    before = _symbols("python")
    edited = "import os\n\n\n" + source.replace("return 2", "return 3")
    after = _symbols("python", edited)
    assert set(after) == set(before)  # no key moved despite shifted lines
    for key in before:
        if key == "helper#function~2":
            assert after[key][1] != before[key][1]  # its own body changed
        else:
            assert after[key][1] == before[key][1], key
    # A new third helper appended after the others keeps the first two keys.
    third = _symbols("python", source + "def helper():\n    return 3\n")
    assert {"helper#function", "helper#function~2", "helper#function~3"} <= set(third)
    assert third["helper#function~2"] == before["helper#function~2"]


def test_same_file_references_resolve_only_when_unambiguous() -> None:
    language = load_language("javascript")
    assert language is not None
    path, source, _ = SOURCES["javascript"]
    refs = extract_file(language, path, source.encode()).references
    short = {(a.split("::")[1], b.split("::")[1]) for a, b in refs}
    assert ("Cart.total#method", "sum#function") in short


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"def f(:\n  pass\n", "syntax error"),
        (b"x = '\xff\xfe'\n", "invalid UTF-8"),
        (b"\x00\x01binary", "binary"),
    ],
)
def test_unparseable_files_get_a_reason(data: bytes, reason: str) -> None:
    language = load_language("python")
    assert language is not None
    extraction = extract_file(language, "bad.py", data)
    assert (extraction.error, extraction.symbols) == (reason, ())
