"""Benchmarks: scripts run as modules from the repository root (``python -m
bench.bench_standings``), not collected by pytest. Each figure is measured beside a
baseline taken in the same run and reported as a ratio; ``bench/README.md`` holds the
results. Helpers shared by more than one bench live in ``bench.common``."""
