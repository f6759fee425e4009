"""Stubs of ``_multiset.pyx``: a rank multiset of new cards, for the kernels (cimport), none for Python."""
