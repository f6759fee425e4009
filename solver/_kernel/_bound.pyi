"""Stubs of ``_bound.pyx``: bounds of exchanges, for the kernels (cimport), none for Python."""
