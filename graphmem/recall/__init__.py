"""Recall: lexical, semantic and graph arms fused by RRF, ranked, rendered, traced."""
