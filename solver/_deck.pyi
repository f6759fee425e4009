"""Stubs of ``ext/_deck.pyx``: the dealer's counts for a deck, for the kernels (cimport), none for Python."""
