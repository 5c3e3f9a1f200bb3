"""The spec's string-spelled numbers as a peer library takes them (both drivers)."""

from __future__ import annotations

import math
from typing import Any


def number_or_name(value: str) -> Any:
    """"nan"/"inf" and numbers as floats; a name (matrix_norm's ord='fro', SPEC OPS-8.4) as it is."""
    try:
        return float(value)
    except ValueError:
        return value


# matrix_norm's ord and cond's p: the spec's schema spells the numeric orders as strings (SPEC OPS-8.4).
_MATRIX_ORDERS = {"fro": "fro", "nuc": "nuc", "1": 1, "-1": -1, "2": 2, "-2": -2,
                  "inf": math.inf, "-inf": -math.inf}


def matrix_ord(ord: Any) -> Any:
    return _MATRIX_ORDERS.get(ord, ord)
