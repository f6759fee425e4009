"""Stubs of ``_combinatorics.pyx``: its tables are for the kernels (cimport), none for Python."""
