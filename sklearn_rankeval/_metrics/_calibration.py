"""Calibration bins of predicted probabilities: edges, bin sums, ECE and PCOC.

The one place that says how rows are binned for the reliability curve and the
expected calibration error (ECE), exactly as
:func:`sklearn.calibration.calibration_curve` (scikit-learn 1.9) bins them:

* ``strategy="uniform"``: edges ``np.linspace(0, 1, n_bins + 1)``;
* ``strategy="quantile"``: edges at the quantiles ``0, 1/n_bins, ..., 1`` of
  ``y_prob``: ``np.percentile`` (its default ``"linear"`` method) without
  weights, the weighted rule of :func:`weighted_percentile` with them;
* a row goes to bin ``np.searchsorted(edges[1:-1], p)``: a probability on an
  inner edge joins the lower bin, 0 the first bin and 1 the last.

Everything is computed from three additive sums per (group, bin): the weight
``W``, the weighted sum of the probabilities ``SP`` and of the labels ``SY``
(:func:`bin_sums`, one ``bincount``).  The ECE and the PCOC are functions of
those sums (:func:`ece_from_sums`, :func:`pcoc_from_sums`, vectorised over
leading axes), so sums added over groups, over bootstrap resamples of groups
or over chunks give the same numbers as one pass over the rows.

Nothing here plots; :mod:`._plot.calibration` draws the curves.
"""

from numbers import Integral

import numpy as np

from .._core import (
    Interval,
    check_option,
    column_or_2d,
    declared,
)
from .._engine import check_inputs, encode_rows
from .._stats import (
    check_confidence,
    check_n_resamples,
    check_random_state,
    percentile_interval,
    resample_counts,
)

__all__ = [
    "STRATEGIES",
    "bin_edges",
    "bin_index",
    "bin_sums",
    "bootstrap_bin_means",
    "check_n_bins",
    "ece_from_sums",
    "encode_labels",
    "pcoc_from_sums",
    "reliability_curves",
    "validate_calibration_inputs",
    "weighted_percentile",
]

STRATEGIES = ("uniform", "quantile")


# ---------------------------------------------------------------------------
# checks (one place: the display and the ECE metric both call these)
# ---------------------------------------------------------------------------
#: ``n_bins``: the number of calibration bins, an integer >= 1.
check_n_bins = declared("n_bins", Interval(Integral, 1, None), convert=int,
                        text="an integer >= 1")


def _one_d(x, name):
    arr = column_or_2d(x, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {arr.shape}.")
    return arr


def quantile_edges(y_prob, n_bins, sample_weight=None):
    """The quantile bin edges of all rows (a tuple), as :func:`bin_edges`;
    2-D ``y_prob`` with one weight per row gives that weight to its items."""
    from .._core import to_numpy

    def host(x):
        return to_numpy(x if hasattr(x, "shape") else np.asarray(x))

    p = host(y_prob).astype(np.float64)
    w = None if sample_weight is None else host(sample_weight).astype(np.float64)
    if w is not None and p.ndim == 2:
        w = np.repeat(w, p.shape[1])
    return tuple(bin_edges(p.ravel(), check_n_bins(n_bins), "quantile", w).tolist())


def validate_calibration_inputs(y_true, y_prob, sample_weight=None, *,
                                n_bins=10, strategy="uniform", pos_label=None):
    """Check the arguments of a calibration computation, in one pass.

    Returns ``(y, p, w, n_bins)``: 0/1 labels and probabilities as float64
    arrays, the weights (float64, or None) and ``n_bins`` as an int.  The
    inputs are never modified (a converted copy is returned where needed).
    """
    n_bins = check_n_bins(n_bins)
    check_option(strategy, "strategy", STRATEGIES)
    # the one input door: labels, probabilities, lengths and weights read
    # and worded as every metric reads them (the ECE metric included)
    p = _one_d(y_prob, "y_prob")
    _, y, p, _, w = check_inputs(y_true, p, sample_weight=sample_weight,
                                 score_name="y_prob", probabilities=True,
                                 binary=True, pos_label=pos_label)
    return (np.asarray(y).astype(np.float64), p.astype(np.float64, copy=False),
            w, n_bins)


def encode_labels(labels, n, name):
    """Per-row labels (segments, groups) -> dense codes and the sorted labels."""
    return encode_rows(labels, n, name=name)


# ---------------------------------------------------------------------------
# edges and bins
# ---------------------------------------------------------------------------
def weighted_percentile(values, sample_weight, q):
    """Weighted percentiles ``q`` (in [0, 100]) of ``values``, linear rule.

    The rule is the weighted form of NumPy's default ``"linear"`` method
    (Hyndman and Fan's type 7): rows of weight 0 are left out; the others
    are sorted by value (ties by weight, so the result does not depend on
    the order of the rows) and row ``i``, with weight ``w_i`` and ``S_i``
    the cumulative weight up to and including it, stands at the plotting
    position

    .. math::  t_i = \\frac{S_i - w_i}{W - w_i},  \\qquad W = \\sum_j w_j,

    and the percentile ``q`` is the value linearly interpolated at
    ``t = q / 100`` (``t_1 = 0`` and ``t_n = 1``: the smallest and the
    largest value).  With equal weights ``t_i = (i - 1) / (n - 1)``: exactly
    ``np.percentile``; scaling the weights changes nothing.  Integer weights
    are *not* the same as repeated rows (no rule can be both scale-free and
    that), and one row of positive weight gives its value at every ``q``.
    The positions increase strictly with positive weights.
    """
    values = np.asarray(values, dtype=np.float64)
    w = np.asarray(sample_weight, dtype=np.float64)
    keep = w > 0
    if not keep.any():
        raise ValueError("sample_weight sums to zero: no row to bin.")
    values, w = values[keep], w[keep]
    t = np.asarray(q, dtype=np.float64) / 100.0
    if np.all(w == w[0]):
        # equal weights: NumPy's own computation, bit for bit
        return np.percentile(values, q)
    order = np.lexsort((w, values))
    x, w = values[order], w[order]
    cum = np.cumsum(w)
    total = cum[-1]
    position = (cum - w) / (total - w)
    position[-1] = 1.0  # exactly, whatever the rounding
    return np.interp(t, position, x)


def bin_edges(y_prob, n_bins, strategy, sample_weight=None):
    """The ``n_bins + 1`` edges of the calibration bins of ``y_prob``.

    ``"uniform"``: ``np.linspace(0, 1, n_bins + 1)``.  ``"quantile"``: the
    percentiles ``np.linspace(0, 100, n_bins + 1)`` of ``y_prob``, as
    ``calibration_curve`` computes them (``np.percentile``) without weights,
    by :func:`weighted_percentile` with them.  Quantile edges may repeat
    (ties in ``y_prob``): the bins between equal edges stay empty.
    """
    if strategy == "uniform":
        return np.linspace(0.0, 1.0, n_bins + 1)
    quantiles = np.linspace(0, 1, n_bins + 1) * 100
    if sample_weight is None:
        return np.percentile(y_prob, quantiles)
    return weighted_percentile(y_prob, sample_weight, quantiles)


def bin_index(y_prob, edges):
    """The bin of each probability: ``np.searchsorted(edges[1:-1], y_prob)``.

    A probability on an inner edge joins the lower bin (scikit-learn's rule);
    the result is an int64 array in ``0 .. len(edges) - 2``.
    """
    return np.searchsorted(np.asarray(edges)[1:-1], y_prob).astype(np.int64)


def bin_sums(bins, codes, y_true, y_prob, sample_weight, *, n_bins, n_groups):
    """Additive sums per (group, bin): ``(W, SP, SY)``, each (n_groups, n_bins).

    ``W`` is the total weight of the rows of each group in each bin, ``SP``
    and ``SY`` the weighted sums of their probabilities and labels.
    ``codes`` (the group of each row, ``0 .. n_groups - 1``) may be None for
    one group; ``sample_weight`` None means unit weights.  One ``bincount``
    per sum: no loop over groups or rows.
    """
    flat = bins if codes is None else codes * n_bins + bins
    size = n_groups * n_bins
    w = (np.ones(len(bins)) if sample_weight is None
         else np.asarray(sample_weight, dtype=np.float64))
    shape = (n_groups, n_bins)
    W = np.bincount(flat, weights=w, minlength=size).reshape(shape)
    SP = np.bincount(flat, weights=w * y_prob, minlength=size).reshape(shape)
    SY = np.bincount(flat, weights=w * y_true, minlength=size).reshape(shape)
    return W, SP, SY


def ece_from_sums(W, SP, SY):
    """Expected calibration error from bin sums, over the last axis.

    ``sum_b (W_b / W) |SP_b / W_b - SY_b / W_b| = sum_b |SP_b - SY_b| / W``
    with ``W = sum_b W_b``: one value per leading index (a float64 array of
    shape ``W.shape[:-1]``), NaN where the total weight is 0.
    """
    W, SP, SY = (np.asarray(a, dtype=np.float64) for a in (W, SP, SY))
    total = W.sum(axis=-1)
    gap = np.abs(SP - SY).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total > 0, gap / total, np.nan)


def pcoc_from_sums(SP_total, SY_total):
    """Predicted over observed clicks, ``SP / SY`` elementwise (NaN where SY = 0).

    1 is calibrated; above 1 the model over-predicts.
    """
    SP_total = np.asarray(SP_total, dtype=np.float64)
    SY_total = np.asarray(SY_total, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(SY_total > 0, SP_total / SY_total, np.nan)


def bootstrap_bin_means(W, SY, n_resamples, rng):
    """Bootstrap distributions of each bin's fraction of positives, over groups.

    ``W`` and ``SY`` are per-(group, bin) sums, (n_groups, n_bins)
    (:func:`bin_sums`).  A resample draws ``n_groups`` groups with
    replacement (:func:`~._bootstrap.resample_counts`, counts ``C``); its
    bins' sums are ``C @ W`` and ``C @ SY`` and its fractions of positives
    their ratio.  Returns (n_resamples, n_bins), NaN where a resample has no
    weight in a bin.
    """
    n_groups, n_bins = W.shape
    out = np.empty((n_resamples, n_bins))
    for start, counts in resample_counts(n_groups, n_resamples, rng):
        w, sy = counts @ W, counts @ SY
        with np.errstate(divide="ignore", invalid="ignore"):
            out[start:start + counts.shape[0]] = np.where(w > 0, sy / w, np.nan)
    return out


# ---------------------------------------------------------------------------
# reliability curves, per segment
# ---------------------------------------------------------------------------
def _curve(W, SP, SY):
    """One segment's curve from its bin sums: bins of weight 0 dropped."""
    nonzero = W > 0
    return {
        "prob_true": SY[nonzero] / W[nonzero],
        "prob_pred": SP[nonzero] / W[nonzero],
        "weights": W[nonzero],
        "bins": np.flatnonzero(nonzero),
        "pcoc": float(pcoc_from_sums(SP.sum(), SY.sum())),
        "ece": float(ece_from_sums(W, SP, SY)),
    }


def _segment_bins(p, w, seg, n_segments, n_bins, strategy):
    """Each row's bin; quantile edges come from the rows of its own segment."""
    if strategy == "uniform" or n_segments == 1:
        edges = bin_edges(p, n_bins, strategy, w)
        return bin_index(p, edges), [edges] * n_segments
    bins = np.empty(p.shape[0], dtype=np.int64)
    # quantile edges per segment: a loop over the segments (few labels)
    order = np.argsort(seg, kind="stable")
    starts = np.searchsorted(seg[order], np.arange(n_segments + 1))
    all_edges = []
    for s in range(n_segments):
        rows = order[starts[s]:starts[s + 1]]
        edges = bin_edges(p[rows], n_bins, strategy,
                          None if w is None else w[rows])
        bins[rows] = bin_index(p[rows], edges)
        all_edges.append(edges)
    return bins, all_edges


def reliability_curves(y_true, y_prob, *, segments=None, sample_weight=None,
                       n_bins=10, strategy="uniform", pos_label=None,
                       groups=None, confidence=None, n_resamples=1000,
                       random_state=None):
    """The reliability curve of each segment (or of all rows), weighted.

    Returns a dict ``{segment: curve}`` in sorted segment order (the one key
    ``None`` without ``segments``); each curve is a dict with

    * ``prob_true``: the weighted fraction of positives ``SY_b / W_b`` of each
      non-empty bin, and ``prob_pred`` the weighted mean probability
      ``SP_b / W_b``; with unit weights both equal
      ``sklearn.calibration.calibration_curve(y_true, y_prob, n_bins=n_bins,
      strategy=strategy)`` on the segment's rows;
    * ``weights``: the bins' total weights ``W_b``; ``bins``: their indices;
    * ``edges``: the bin edges (quantile edges from the segment's own rows);
    * ``pcoc`` and ``ece``: the segment's calibration ratio and ECE;
    * with ``confidence``: ``prob_true_low`` and ``prob_true_high``, the
      bootstrap percentile interval of each bin's ``prob_true`` over the
      segment's groups (:func:`bootstrap_bin_means`; groups in sorted id
      order, the segments one after the other from one generator).

    Each segment's curve is the one of its rows alone.  A bin whose rows all
    have weight 0 is dropped, as ``calibration_curve`` drops empty bins, so a
    weight of 0 is the same as leaving the row out.
    """
    y, p, w, n_bins = validate_calibration_inputs(
        y_true, y_prob, sample_weight, n_bins=n_bins, strategy=strategy,
        pos_label=pos_label)
    n = p.shape[0]
    if confidence is not None:
        confidence = check_confidence(confidence)
        n_resamples = check_n_resamples(n_resamples)
        rng = check_random_state(random_state)
        if groups is None:
            raise ValueError(
                "groups is required with confidence: the band resamples groups "
                "(users, queries), never rows.")
        group_codes, _ = encode_labels(groups, n, "groups")
    if segments is None:
        seg, labels = np.zeros(n, dtype=np.int64), [None]
    else:
        seg, labels = encode_labels(segments, n, "segments")
        labels = np.asarray(labels).tolist()
    if w is not None and strategy == "quantile" and (
            np.bincount(seg, weights=w, minlength=len(labels)) == 0).any():
        raise ValueError(
            "sample_weight is 0 on every row of a segment: its quantile bins "
            "are undefined.")
    bins, edges = _segment_bins(p, w, seg, len(labels), n_bins, strategy)
    W, SP, SY = bin_sums(bins, seg, y, p, w, n_bins=n_bins, n_groups=len(labels))
    curves = {}
    # a loop over the segments (a handful of labels), not over groups or rows
    for s, label in enumerate(labels):
        curve = _curve(W[s], SP[s], SY[s])
        curve["edges"] = edges[s]
        if confidence is not None:
            rows = np.flatnonzero(seg == s)
            local, present = encode_rows(group_codes[rows], rows.shape[0])
            Wg, _, SYg = bin_sums(
                bins[rows], local, y[rows], p[rows],
                None if w is None else w[rows], n_bins=n_bins,
                n_groups=len(present))
            dist = bootstrap_bin_means(Wg, SYg, n_resamples, rng)
            low, high = percentile_interval(dist[:, curve["bins"]], confidence)
            curve["prob_true_low"] = np.atleast_1d(low)
            curve["prob_true_high"] = np.atleast_1d(high)
        curves[label] = curve
    return curves
