"""Slow, plain-Python implementations written straight from docs/rules.md: the judges of the kernels.

Nothing here is fast; tests compare the kernels and the solver against these.
"""
