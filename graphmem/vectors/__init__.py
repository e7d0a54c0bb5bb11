"""Vectors, used by recall and formation alike.

The ``Embedder`` protocol and the default offline MiniLM on onnxruntime (with an
embedding cache), the FAISS views derived from the event log, and the transient tier
that bounds those views by bytes.
"""
