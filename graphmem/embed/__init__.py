"""Embedders: the protocol, the default offline MiniLM on onnxruntime, and a cache."""
