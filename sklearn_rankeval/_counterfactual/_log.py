"""The arrays of a click log, checked once for the estimator and the report.

One row per displayed item: ``clicks`` (0/1), ``positions`` (1-based
logged ranks), ids (``items``, ``groups``) and ``sample_weight``.  The
rules themselves are :mod:`sklearn_rankeval._core`'s (one definition of each
check); this module applies them to the log's arguments and compares their
lengths.
"""

import numpy as np

from .._core import (
    validate_binary,
    validate_positions,
    validate_positive,
)
from .._engine import encode_rows, group_ids_array

__all__ = ["check_log", "check_propensities", "encode_ids", "pair_counts"]


def check_log(clicks, positions):
    """``(clicks, 0/1 of any numeric dtype; positions as int64)``, of one
    length."""
    clicks = validate_binary(clicks, "clicks")
    positions = validate_positions(positions, "positions")
    n = clicks.shape[0]
    if positions.shape[0] != n:
        raise ValueError(f"positions must have one rank per row of clicks ({n}), "
                         f"got {positions.shape[0]}.")
    return clicks, positions


def check_propensities(propensities, positions):
    """The propensity of each position as a float64 array, checked against
    the log: finite and > 0, and one for every logged position."""
    theta = validate_positive(propensities, "propensities")
    top = int(positions.max())
    if top > theta.shape[0]:
        n_beyond = int(np.count_nonzero(positions > theta.shape[0]))
        raise ValueError(
            f"positions: {n_beyond} row(s) were shown at a position beyond the "
            f"{theta.shape[0]} propensities (up to {top}); estimate the "
            f"propensities of every logged position (max_position) or leave "
            f"those rows out.")
    return theta


def encode_ids(ids, n, name):
    """Dense codes ``0 .. n_ids - 1`` of one id per row, and the ids.

    The engine's encoder (integers by counting, strings by hashing); its
    messages name ``name``.
    """
    arr = group_ids_array(ids)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(f"{name} must be 1-D with one id per row of clicks "
                         f"({n}), got shape {arr.shape}.")
    return encode_rows(ids, n, name=name)


def pair_counts(a, b, n_b, weights=()):
    """The distinct pairs ``(a, b)`` of the rows and sums over each pair.

    ``a`` and ``b`` are non-negative int64 codes (``b < n_b``).  Returns
    ``(pair_a, pair_b, n_rows, sums)``: each distinct pair once, the number
    of rows holding it and, for each array of ``weights``, its sum over
    those rows.  Counted with one ``bincount`` of ``a * n_b + b`` where the
    codes span at most a few times the rows, else found by one sort.
    """
    n = a.shape[0]
    key = a * n_b + b
    span = int(key.max()) + 1 if n else 0
    if span <= 4 * n + (1 << 20):
        count = np.bincount(key, minlength=span)
        pairs = np.flatnonzero(count)
        sums = [np.bincount(key, weights=wt, minlength=span)[pairs]
                for wt in weights]
        count = count[pairs]
    else:
        pairs, inverse, count = np.unique(key, return_inverse=True,
                                          return_counts=True)
        inverse = inverse.reshape(-1)
        sums = [np.bincount(inverse, weights=wt, minlength=pairs.shape[0])
                for wt in weights]
    return pairs // n_b, pairs % n_b, count, sums
