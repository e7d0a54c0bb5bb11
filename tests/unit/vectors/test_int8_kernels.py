"""The pinned model rewritten for int8 kernels: its bytes, its cache, its vectors."""

from __future__ import annotations

import hashlib
import stat
from pathlib import Path

import numpy as np
import onnx
import onnxruntime
import pytest
from onnx import TensorProto, helper, numpy_helper
from tokenizers import BertWordPieceTokenizer

from graphmem.errors import ConfigError
from graphmem.vectors.int8_kernels import (
    DERIVED_SHA256,
    PRODUCTS,
    int8_kernel_model,
    load_int8_kernel_model,
)
from graphmem.vectors.minilm import MiniLMEmbedder, model_path, vocab_path


@pytest.fixture(scope="module")
def derived() -> bytes:
    return int8_kernel_model(model_path())


def _ops(model: bytes) -> list[str]:
    return [node.op_type for node in onnx.load_from_string(model).graph.node]


def test_the_rewrite_gives_the_pinned_bytes_every_time(derived: bytes) -> None:
    assert hashlib.sha256(derived).hexdigest() == DERIVED_SHA256
    assert int8_kernel_model(model_path()) == derived


def test_every_weight_product_runs_on_the_int8_kernel(derived: bytes) -> None:
    before, after = _ops(model_path().read_bytes()), _ops(derived)
    assert after.count("MatMulNBits") == PRODUCTS
    # The casts and scalings that fed them are gone; the activations' products stay.
    assert after.count("MatMul") == before.count("MatMul") - PRODUCTS
    assert after.count("Cast") < before.count("Cast")


def test_the_cache_is_written_private_and_read_back(tmp_path: Path) -> None:
    cache = tmp_path / "models" / "model.onnx"
    first = load_int8_kernel_model(model_path(), cache)
    assert cache.read_bytes() == first
    assert stat.S_IMODE(cache.stat().st_mode) == 0o600
    assert stat.S_IMODE(cache.parent.stat().st_mode) == 0o700
    assert load_int8_kernel_model(model_path(), cache) == first


def test_a_cache_that_is_not_the_pinned_bytes_is_derived_again(tmp_path: Path) -> None:
    cache = tmp_path / "model.onnx"
    cache.write_bytes(b"truncated")
    loaded = load_int8_kernel_model(model_path(), cache)
    assert hashlib.sha256(loaded).hexdigest() == DERIVED_SHA256
    assert cache.read_bytes() == loaded


def test_a_model_without_int8_products_is_refused(tmp_path: Path) -> None:
    weights = numpy_helper.from_array(np.ones((4, 4), dtype=np.float32), "w")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])],
        "float",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])],
        [weights],
    )
    source = tmp_path / "float.onnx"
    onnx.save(helper.make_model(graph), str(source))
    with pytest.raises(ConfigError) as raised:
        int8_kernel_model(source)
    assert raised.value.details == {"field": "embedding_model", "rule": "shape"}


def test_vectors_stay_within_a_cosine_of_the_float_products(tmp_path: Path) -> None:
    texts = [
        "retry with backoff when the queue is full",
        "the deploy failed because DATABASE_URL was missing",
        "use ruff instead of flake8 in this repository",
    ]
    int8 = MiniLMEmbedder(threads=1, models=tmp_path).embed(texts)
    float_session = onnxruntime.InferenceSession(
        str(model_path()), providers=["CPUExecutionProvider"]
    )
    tokenizer = BertWordPieceTokenizer(str(vocab_path()), lowercase=True)
    for row, text in enumerate(texts):
        ids = np.array([tokenizer.encode(text).ids], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        feeds["token_type_ids"] = np.zeros_like(ids)
        pooled = float_session.run(None, feeds)[0][0].mean(axis=0)
        cosine = float(int8[row] @ pooled / np.linalg.norm(pooled))
        assert cosine >= 0.995, (text, cosine)  # 0.9990 the least of 300 texts
