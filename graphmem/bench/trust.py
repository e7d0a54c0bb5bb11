"""``graphmem bench trust``: the secret finder and the injection scan on labelled corpora.

Positives: the labelled set ``tests/data/trust/labelled.jsonl`` (secrets and injections in
many forms, languages and encodings, some meant to be missed), the secret samples
``tests/data/secrets/secret_texts.jsonl`` and the injection payloads
``tests/data/injection/payloads.jsonl``. Negatives: the benign samples beside them, and
the project's own text: README.md and docs/*.md, the other files under tests/data, and
the source tree (graphmem/**/*.py), each cut into paragraphs (runs of lines between
blank lines), as memory items are short. Counted per detector family.

Yelp's detect-secrets (its default plugins and filters, as ``detect-secrets scan``
runs them) reads the same items, each written to a file of its own with the suffix of
where it came from, so its figures stand beside the secret finder's.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphmem.errors import ConfigError
from graphmem.trust.injection import scan_all
from graphmem.trust.secrets import find_secrets

LABELLED = "tests/data/trust/labelled.jsonl"
SECRET_SAMPLES = "tests/data/secrets/secret_texts.jsonl"
SECRET_BENIGN = "tests/data/secrets/benign_texts.jsonl"
INJECTION_PAYLOADS = "tests/data/injection/payloads.jsonl"
INJECTION_BENIGN = "tests/data/injection/benign.jsonl"
DEFAULT_ROOT = Path(__file__).resolve().parents[2]
"""The checkout this graphmem runs from (its corpora are read unless told otherwise)."""
_SKIPPED_DATA = {"minilm_reference.json"}
"""Files under tests/data that hold no text (embedding vectors)."""
_SECRET_FAMILIES = {
    "private key": "private key",
    "password in url": "password in url or command",
    "password in command": "password in url or command",
    "authorization header": "authorization header",
    "password assignment": "assignment",
    "secret assignment": "assignment",
    "aws secret key": "assignment",
    "high-entropy string": "high-entropy string",
}
"""A finding's kind as a family (every other kind is a provider key)."""


@dataclass(frozen=True)
class Item:
    """One text of a corpus.

    Attributes:
        text: The text.
        corpus: Where it comes from (a file, or a group of files).
        detector: For a positive, "secret" or "injection"; empty for a negative.
        family: For a positive, what it is (as labelled); empty for a negative.
        suffix: The file suffix detect-secrets sees it under.
    """

    text: str
    corpus: str
    detector: str = ""
    family: str = ""
    suffix: str = ".txt"
    form: str = ""
    """For a labelled positive, how it is written (grouped, base64, a language...)."""


def run_trust_bench(root: Path = DEFAULT_ROOT) -> dict[str, Any]:
    """Runs both detectors and detect-secrets over the corpora under ``root``.

    Args:
        root: The repository's top directory (holding tests/data, docs and graphmem);
            by default the checkout this graphmem runs from.

    Returns:
        ``{"positives": {family: {"items", "graphmem", "detect_secrets"}}, "negatives":
        {corpus: {"items", "secret", "injection", "detect_secrets", "families"}},
        "cost_ms_per_kb": {"secrets", "injection"}, "kb", "detect_secrets_version"}``.

    Raises:
        ConfigError: detect-secrets is not installed, or ``root`` holds no corpora.
    """
    version = _detect_secrets_version()
    if not (root / LABELLED).is_file():
        raise ConfigError(
            f"{root} holds no {LABELLED}: run the trust bench from a graphmem checkout "
            "or pass --root",
            field="root",
            rule="exists",
        )
    positives = list(_positives(root))
    negatives = list(_negatives(root))
    everything = positives + negatives
    secret_hits, secret_seconds = _timed(lambda text: bool(find_secrets(text)), everything)
    injection_hits, injection_seconds = _timed(lambda text: bool(scan_all(text)), everything)
    theirs = _detect_secrets_hits(everything)
    kilobytes = sum(len(item.text.encode()) for item in everything) / 1024
    figures: dict[str, Any] = {
        "positives": _positive_figures(positives, secret_hits, injection_hits, theirs),
        "negatives": _negative_figures(negatives, len(positives), theirs),
        "cost_ms_per_kb": {
            "secrets": round(secret_seconds * 1000 / kilobytes, 4),
            "injection": round(injection_seconds * 1000 / kilobytes, 4),
        },
        "kb": round(kilobytes, 1),
        "detect_secrets_version": version,
    }
    return figures


def _detect_secrets_version() -> str:
    try:
        from detect_secrets.__version__ import VERSION
    except ImportError:
        raise ConfigError(
            "graphmem bench trust compares against detect-secrets, which is not installed: "
            "pip install 'graphmem[bench]' (or pip install detect-secrets).",
            field="detect-secrets",
            rule="installed",
        ) from None
    return str(VERSION)


# --- corpora --------------------------------------------------------------------------


def _jsonl(path: Path) -> Iterator[dict[str, str]]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


def _positives(root: Path) -> Iterator[Item]:
    for row in _jsonl(root / LABELLED):
        family = f"{row['detector']}: {row['family']} (labelled)"
        yield Item(row["text"], LABELLED, row["detector"], family, form=row["form"])
    for row in _jsonl(root / SECRET_SAMPLES):
        yield Item(row["text"], SECRET_SAMPLES, "secret", "secret: samples")
    for row in _jsonl(root / INJECTION_PAYLOADS):
        yield Item(row["text"], INJECTION_PAYLOADS, "injection", f"injection: {row['category']}")


def _negatives(root: Path) -> Iterator[Item]:
    for name in (SECRET_BENIGN, INJECTION_BENIGN):
        yield from (Item(row["text"], name) for row in _jsonl(root / name))
    docs = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    yield from _paragraphs(docs, "README.md, docs/*.md")
    data = [
        path
        for path in sorted((root / "tests" / "data").rglob("*"))
        if path.is_file()
        and path.suffix in {".json", ".md", ".txt"}
        and path.name not in _SKIPPED_DATA
    ]
    yield from _paragraphs(data, "tests/data (other files)")
    source = sorted((root / "graphmem").rglob("*.py"))
    trust = [path for path in source if path.parent.name == "trust"]
    yield from _paragraphs(trust, "graphmem/trust/*.py (quotes the attacks)")
    yield from _paragraphs([p for p in source if p not in trust], "graphmem/**/*.py (the rest)")


def _paragraphs(paths: Iterable[Path], corpus: str) -> Iterator[Item]:
    """Each file's runs of non-blank lines, one item each."""
    for path in paths:
        lines: list[str] = []
        for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
            if line.strip():
                lines.append(line)
            elif lines:
                yield Item("\n".join(lines), corpus, suffix=path.suffix)
                lines = []


# --- detection ------------------------------------------------------------------------


TIMED_PASSES = 3
"""Each detector reads the corpora this many times; the fastest pass is its cost."""


def _timed(detect: Callable[[str], bool], items: list[Item]) -> tuple[list[bool], float]:
    """What ``detect`` says of each item, and its fastest pass over them in seconds."""
    best = float("inf")
    hits: list[bool] = []
    for _ in range(TIMED_PASSES):
        started = time.perf_counter()
        hits = [detect(item.text) for item in items]
        best = min(best, time.perf_counter() - started)
    return hits, best


def _detect_secrets_hits(items: list[Item]) -> list[bool]:
    """Whether detect-secrets, with its default plugins and filters, finds a secret."""
    from detect_secrets.core.secrets_collection import SecretsCollection
    from detect_secrets.settings import default_settings

    hits = []
    with tempfile.TemporaryDirectory() as folder, default_settings():
        for number, item in enumerate(items):
            path = Path(folder) / f"item{number}{item.suffix}"
            path.write_text(item.text + "\n", encoding="utf-8")
            found = SecretsCollection(root=folder)
            found.scan_file(path.name)
            hits.append(bool(found.data))
    return hits


def _family(text: str, reason_of_injection: bool) -> list[str]:
    if reason_of_injection:
        return sorted({f"injection: {finding.reason.value}" for finding in scan_all(text)})
    kinds = {finding.kind for finding in find_secrets(text)}
    return sorted({f"secret: {_SECRET_FAMILIES.get(kind, 'provider key')}" for kind in kinds})


def _positive_figures(
    positives: list[Item], secret_hits: list[bool], injection_hits: list[bool], theirs: list[bool]
) -> dict[str, dict[str, Any]]:
    figures: dict[str, dict[str, Any]] = {}
    for at, item in enumerate(positives):
        secret = item.detector == "secret"
        row = figures.setdefault(
            item.family,
            {"items": 0, "graphmem": 0, "detect_secrets": 0 if secret else None, "missed": []},
        )
        row["items"] += 1
        caught = secret_hits[at] if secret else injection_hits[at]
        row["graphmem"] += caught
        if secret:
            row["detect_secrets"] += theirs[at]
        if item.form and not caught and item.form not in row["missed"]:
            row["missed"].append(item.form)
    return dict(sorted(figures.items()))


def _negative_figures(
    negatives: list[Item], offset: int, theirs: list[bool]
) -> dict[str, dict[str, Any]]:
    figures: dict[str, dict[str, Any]] = {}
    for at, item in enumerate(negatives, start=offset):
        row = figures.setdefault(
            item.corpus,
            {"items": 0, "secret": 0, "injection": 0, "detect_secrets": 0, "families": Counter()},
        )
        row["items"] += 1
        row["detect_secrets"] += theirs[at]
        for reason_of_injection, key in ((False, "secret"), (True, "injection")):
            families = _family(item.text, reason_of_injection)
            row[key] += bool(families)
            row["families"].update(families)
    for row in figures.values():
        row["families"] = dict(sorted(row["families"].items()))
    return figures
