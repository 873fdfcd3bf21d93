"""The arrays of a click log, checked once for the estimator and the report.

One row per displayed item: ``clicks`` (0/1), ``positions`` (1-based
logged ranks), ids (``items``, ``groups``) and ``sample_weight``.  A log is
an adapter of the one input door: :func:`check_log` builds the
:class:`~sklearn_rankeval._engine.RankingInput` of its arrays
(:func:`~sklearn_rankeval._engine.check_inputs`: the clicks as the
labels, ``positions`` read by the door's reader of that column), and the
ids are coded by the engine's one encoding (:func:`encode_ids`); no rule
is written here a second time.
"""

import numpy as np

from .._core import validate_binary, validate_positive
from .._engine import check_inputs, encode_rows

__all__ = ["beyond", "check_beyond", "check_clicks", "check_log", "check_propensities",
           "check_repeated", "encode_ids", "pair_counts", "repeated_impressions"]


def check_clicks(clicks):
    """The clicks of a log: 0/1 of any numeric dtype, or booleans (not
    copied)."""
    return validate_binary(clicks, "clicks")


def check_log(clicks, positions, *, y_score=None, sample_weight=None):
    """The checked log: ``(clicks, positions, y_score, sample_weight)``.

    The door's :class:`~sklearn_rankeval._engine.RankingInput` of the log
    (:func:`~sklearn_rankeval._engine.check_inputs`, its rules and
    messages): ``clicks`` 0/1 of any numeric dtype (named ``clicks``),
    ``positions`` as int64 (the door's ``positions`` reader: one rank per
    row of ``clicks``), ``sample_weight`` one weight per row (or None), then
    ``y_score``: checked scores of the same length (None: a log fitted
    without scores).  In that order, the order of the checks of a log's
    pieces on Spark and Dask.
    """
    clicks = check_clicks(clicks)
    log = check_inputs(clicks, clicks, sample_weight=sample_weight, binary=True,
                       score_name="clicks", true_name="clicks",
                       positions=positions)
    scores = None
    if y_score is not None:
        scores = check_inputs(log.y_true, y_score, true_name="clicks").y_score
    return log.y_true, log.columns["positions"], scores, log.sample_weight


def beyond(positions, n_propensities):
    """``(top, n_beyond)``: the largest logged position and the number of
    rows shown beyond the ``n_propensities`` positions (0 when none is; the
    rows are counted only then).  The counts of pieces of a log add up
    (``max`` and ``+``) to those of the whole log."""
    top = int(positions.max()) if positions.shape[0] else 0
    n_beyond = (int(np.count_nonzero(positions > n_propensities))
                if top > n_propensities else 0)
    return top, n_beyond


def check_beyond(n_propensities, top, n_beyond):
    """Every logged position has a propensity: ``(top, n_beyond)`` of
    :func:`beyond` over the whole log, else a ``ValueError`` naming
    ``positions``."""
    if top > n_propensities:
        raise ValueError(
            f"positions: {n_beyond} row(s) were shown at a position beyond the "
            f"{n_propensities} propensities (up to {top}); estimate the "
            f"propensities of every logged position (max_position) or leave "
            f"those rows out.")


def check_propensities(propensities):
    """The propensity of each position as a float64 array: finite and > 0."""
    return validate_positive(propensities, "propensities")


def encode_ids(ids, n, name):
    """Dense codes ``0 .. n_ids - 1`` of one id per row, and the ids.

    The engine's encoder (integers by counting, strings by hashing) and its
    rule of one id per row; its messages name ``name``.
    """
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


def repeated_impressions(group_code, positions, *, exclude=None):
    """The number of impressions (groups, as dense codes) that show one
    position on several rows; ``exclude``: a code left out of the count (a
    group cut at the end of a piece, counted with the next)."""
    if not positions.shape[0]:
        return 0
    n_pos = int(positions.max())
    pair_g, _, count, _ = pair_counts(group_code, positions - 1, n_pos)
    bad = np.unique(pair_g[count > 1])
    if exclude is not None:
        bad = bad[bad != exclude]
    return int(bad.shape[0])


def check_repeated(n_repeated):
    """The one rule of a log's impressions: each shows a position once.

    ``n_repeated``: the count of :func:`repeated_impressions` over the whole
    log (counts of pieces add up).  The message of every door: the report
    in memory, on Spark and Dask, and :class:`PositionBiasEstimator`.
    """
    if n_repeated:
        raise ValueError(
            f"positions: {n_repeated} impression(s) (groups) show a position on "
            f"several rows. An impression is one ranking shown once, one row per "
            f"position: give each its own id (a request or page-view id, not the "
            f"query's or the session's).")
