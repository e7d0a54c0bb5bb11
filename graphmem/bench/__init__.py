"""Benchmarks behind ``graphmem bench``: they print figures, they assert nothing."""
