"""The strategy cards shipped with rpoker, installed as the package data ``solver.strategies``."""
