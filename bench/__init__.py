"""Benchmarks (``python -m bench [--quick]``): nothing in tests/ times anything."""
