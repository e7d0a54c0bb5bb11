"""A small billing package: the source tree the docs index."""
