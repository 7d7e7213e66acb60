"""Benchmarks: plain scripts, run by hand (``python -m benchmarks.engine``), never as tests."""
