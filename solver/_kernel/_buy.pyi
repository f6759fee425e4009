"""Stubs of ``_buy.pyx``: buying the dealer a game, for the kernels (cimport), none for Python."""
