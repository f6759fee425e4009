"""Stubs of ``_exchange.pyx``: exchange outcomes, for the kernels (cimport), none for Python."""
