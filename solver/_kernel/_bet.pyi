"""Stubs of ``_bet.pyx``: betting a final hand, for the kernels (cimport), none for Python."""
