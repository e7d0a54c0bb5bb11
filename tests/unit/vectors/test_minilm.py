"""The default embedder against sentence-transformers' reference vectors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from graphmem.errors import ConfigError
from graphmem.vectors import minilm
from graphmem.vectors.int8_kernels import KERNEL_MODEL_FILE
from graphmem.vectors.minilm import (
    _VOCAB,
    DIM,
    MODEL_ID,
    VOCAB_SHA256,
    Arithmetic,
    MiniLMEmbedder,
    _sha256,
    default_arithmetic,
)

REFERENCE = Path(__file__).resolve().parents[2] / "data" / "minilm_reference.json"


# The least cosine to sentence-transformers' float model over the reference sentences:
# the int8 kernels quantise a product's input with one scale (0.977 the least of 20).
LEAST_COSINE = {"int8": 0.97, "float32": 0.99}


@pytest.fixture(scope="module", params=["int8", "float32"])
def embedder(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> MiniLMEmbedder:
    return MiniLMEmbedder(
        threads=1, models=tmp_path_factory.mktemp("models"), arithmetic=request.param
    )


def test_vectors_match_the_reference_model(embedder: MiniLMEmbedder) -> None:
    reference = json.loads(REFERENCE.read_text())
    ours = embedder.embed(reference["sentences"])
    theirs = np.array(reference["vectors"], dtype=np.float32)
    cosines = (ours * theirs).sum(axis=1) / np.linalg.norm(theirs, axis=1)
    assert cosines.min() >= LEAST_COSINE[embedder.arithmetic], dict(
        zip(reference["sentences"], cosines.round(4), strict=True)
    )
    assert np.median(cosines) >= 0.985  # int8 0.993, float32 0.9996 on an AMD EPYC


def test_shape_dtype_norm_and_determinism(embedder: MiniLMEmbedder) -> None:
    texts = ["one", "two words", "three words here"]
    first = embedder.embed(texts)
    assert first.shape == (3, DIM) and first.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(first, embedder.embed(texts))
    # Batching does not change a vector.
    assert np.allclose(embedder.embed(["two words"])[0], first[1], atol=1e-5)
    assert embedder.embed([]).shape == (0, DIM)
    assert embedder.model_id == MODEL_ID


def test_the_shipped_vocabulary_is_the_pinned_one() -> None:
    assert _sha256(_VOCAB) == VOCAB_SHA256


@pytest.mark.parametrize("arithmetic", ["int8", "float32"])
def test_one_text_and_a_batch_agree_across_their_two_sessions(
    tmp_path: Path, arithmetic: Arithmetic
) -> None:
    # One text runs on a one-thread session (float32: a batch on the two-thread one).
    two_threads = MiniLMEmbedder(threads=2, models=tmp_path, arithmetic=arithmetic)
    texts = ["retry with backoff", "invoice totals round half even"]
    batch = two_threads.embed(texts)
    for index, text in enumerate(texts):
        assert np.allclose(two_threads.embed([text])[0], batch[index], atol=1e-5)


def test_int8_gives_a_text_the_same_bytes_alone_or_among_others(tmp_path: Path) -> None:
    # One scale per product and run: a text beside a longer one would share its scale,
    # so every text runs alone (on either of two threads).
    texts = ["ok", "the deploy failed because DATABASE_URL was missing in staging", "ok"]
    two_threads = MiniLMEmbedder(threads=2, models=tmp_path, arithmetic="int8")
    one_thread = MiniLMEmbedder(threads=1, models=tmp_path, arithmetic="int8")
    together = two_threads.embed(texts)
    assert np.array_equal(together, one_thread.embed(texts))
    for index, text in enumerate(texts):
        assert np.array_equal(two_threads.embed([text])[0], together[index])


def test_the_arithmetic_follows_the_environment_else_the_cpu(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GRAPHMEM_EMBEDDER_ARITHMETIC", "INT8")
    assert default_arithmetic() == "int8"
    assert MiniLMEmbedder(threads=1, models=tmp_path).arithmetic == "int8"
    monkeypatch.setenv("GRAPHMEM_EMBEDDER_ARITHMETIC", "float32")
    assert MiniLMEmbedder(threads=1, models=tmp_path).arithmetic == "float32"
    monkeypatch.setenv("GRAPHMEM_EMBEDDER_ARITHMETIC", "FP16")
    with pytest.raises(ConfigError, match="'FP16'") as raised:
        default_arithmetic()
    assert raised.value.details == {"field": "GRAPHMEM_EMBEDDER_ARITHMETIC", "rule": "enum"}
    # auto (or unset) asks the CPU: this machine's kind, its system, its flags.
    monkeypatch.setattr(minilm.platform, "machine", lambda: "x86_64")
    monkeypatch.setattr(minilm.platform, "system", lambda: "Linux")
    for setting in ("auto", " Auto "):
        monkeypatch.setenv("GRAPHMEM_EMBEDDER_ARITHMETIC", setting)
        monkeypatch.setattr(minilm, "cpu_flags", lambda: frozenset({"avx2", "avx512_vnni"}))
        assert default_arithmetic() == "int8"
        monkeypatch.setattr(minilm, "cpu_flags", lambda: frozenset({"avx2", "fma"}))
        assert default_arithmetic() == "int8"
        monkeypatch.setattr(minilm, "cpu_flags", lambda: frozenset({"avx", "sse4_2"}))
        assert default_arithmetic() == "float32"
    monkeypatch.delenv("GRAPHMEM_EMBEDDER_ARITHMETIC")
    assert default_arithmetic() == "float32"


def test_float32_runs_the_pinned_file_as_it_is(tmp_path: Path) -> None:
    embedder = MiniLMEmbedder(threads=1, models=tmp_path, arithmetic="float32")
    assert embedder.arithmetic == "float32"
    assert not (tmp_path / KERNEL_MODEL_FILE).exists()  # nothing rewritten, nothing kept
    MiniLMEmbedder(threads=1, models=tmp_path, arithmetic="int8")
    assert (tmp_path / KERNEL_MODEL_FILE).exists()
