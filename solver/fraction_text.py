"""An exact fraction for JSON: its float for display and its exact value as ``num/den`` text.

>>> from fractions import Fraction
>>> fraction_json(Fraction(-1, 3))
{'value': -0.3333333333333333, 'exact': '-1/3'}
>>> exact(Fraction(4, 2))
'2'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def fraction_json(x: Fraction) -> dict[str, Any]:
    """A figure for JSON: its float and its exact fraction."""
    return {"value": float(x), "exact": exact(x)}


def exact(x: Fraction) -> str:
    """A fraction as ``num/den`` (``num`` when whole)."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
