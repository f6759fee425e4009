"""Stubs of ``_outcome.pyx``: one exchange outcome, for the kernels (cimport), none for Python."""
