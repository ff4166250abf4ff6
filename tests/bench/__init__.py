"""Benchmarks that print figures (never timed assertions): `python -m tests.bench --help`."""
