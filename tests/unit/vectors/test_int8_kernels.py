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
    cpu_flags,
    int8_kernel_model,
    int8_pays,
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
    assert after.count("DynamicQuantizeMatMul") == PRODUCTS
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
    int8 = MiniLMEmbedder(threads=1, models=tmp_path, arithmetic="int8").embed(texts)
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
        # 0.992-0.996 here on an AMD EPYC (AVX2); 0.981 the least of 300 texts there.
        assert cosine >= 0.97, (text, cosine)


# Flags as /proc/cpuinfo gives them: an AMD EPYC (Zen 3) without VNNI, a Xeon with it,
# an x86 from before AVX2.
ZEN3 = "fpu sse sse2 ssse3 fma sse4_1 sse4_2 avx f16c avx2 bmi2 sha_ni vaes vpclmulqdq"
CASCADE_LAKE = "fpu sse sse2 avx avx2 fma avx512f avx512bw avx512vl avx512_vnni"
SANDY_BRIDGE = "fpu sse sse2 ssse3 sse4_1 sse4_2 popcnt aes avx"


@pytest.mark.parametrize(
    ("machine", "system", "flags", "pays"),
    [
        ("x86_64", "Linux", ZEN3, True),
        ("x86_64", "Linux", CASCADE_LAKE, True),
        ("x86_64", "Linux", SANDY_BRIDGE, False),
        ("aarch64", "Linux", "fp asimd aes pmull sha1 sha2 crc32 atomics", False),
        ("aarch64", "Linux", "fp asimd atomics asimdrdm asimddp", True),
        ("arm64", "Darwin", "", True),  # every Apple silicon has sdot
        ("x86_64", "Darwin", "", False),
        ("x86_64", "Windows", "", False),  # unknown: float32, as before the kernels
    ],
)
def test_the_kernels_run_only_where_the_cpu_has_their_integer_instructions(
    machine: str, system: str, flags: str, pays: bool
) -> None:
    assert int8_pays(machine, system, frozenset(flags.split())) is pays


def test_cpu_flags_come_from_the_first_processor(tmp_path: Path) -> None:
    x86 = tmp_path / "x86"
    x86.write_text(f"processor\t: 0\nflags\t\t: {CASCADE_LAKE}\n\nprocessor\t: 1\nflags\t: fpu\n")
    assert cpu_flags(x86) == frozenset(CASCADE_LAKE.split())
    arm = tmp_path / "arm"
    arm.write_text("processor\t: 0\nFeatures\t: fp asimd asimddp\nCPU part\t: 0xd0c\n")
    assert cpu_flags(arm) == frozenset({"fp", "asimd", "asimddp"})
    assert cpu_flags(tmp_path / "missing") == frozenset()
