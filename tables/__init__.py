"""The strategy tables shipped with rpoker, installed as the package data ``solver.shipped``."""
