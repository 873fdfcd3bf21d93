"""Kernels of the CTR metrics: log loss, normalized entropy, PCOC, ECE, xAUC.

These metrics judge predicted probabilities (or, for xAUC, the order of
continuous labels) group by group, and none needs the tie blocks: their
kernels read the unranked view of the engine's ranking (``rg.unranked``:
the rows of the same groups, in the order of the sorted group ids; xAUC
reads them in the engine's rank order), in the input's namespace, and
return :class:`~._averages.Partials` like every kernel, with the additive
statistics their pooled average needs (the engine's compiled pass computes
the first four itself, as their registry entries declare):

==============  =================================================  ==========
metric          statistics per group                               value
==============  =================================================  ==========
log loss        ``sum w*CE``, ``sum w``                             ratio
NE              ``sum w*CE``, ``P = sum w*y``, ``N = sum w*(1-y)``  see below
PCOC            ``sum w*p``, ``sum w*y``                            ratio
ECE             per bin ``W_b``, ``sum w*p``, ``sum w*y``           see below
xAUC            (no pooled average: macro or weighted, as GAUC)
==============  =================================================  ==========

with ``CE = -y log p - (1 - y) log(1 - p)`` (``p`` clipped to ``[eps, 1 -
eps]``, ``eps`` the machine epsilon of the scores' float type, as
:func:`sklearn.metrics.log_loss`).  The normalized entropy divides by the
entropy of the base rate of the same rows, ``-P log(P/(P+N)) - N log(N/(P+N))``,
and the ECE is ``sum_b |sum w*p - sum w*y| / sum_b W_b`` over the bins of
:mod:`._calibration`; both are functions of summed statistics (the
``finalize`` of their registry entry), so the micro average of any set of
groups, a segment, a bootstrap resample or a stream of batches is the metric
of their rows pooled.
"""


import numpy as np

from .._core import astype, namespace_of, take, xpx
from .._stats import Partials
from ._calibration import bin_index, bin_sums, ece_from_sums
from ._concordance import weighted_concordance

__all__ = [
    "calibration_ratio",
    "ece_finalize",
    "expected_calibration_error",
    "log_loss",
    "ne_finalize",
    "normalized_entropy",
    "recalibrated",
    "xauc",
]


# ---------------------------------------------------------------------------
# checks
# ---------------------------------------------------------------------------
def _labels(rows):
    """The 0/1 labels as float64 (checked by the pipeline, which names the
    argument: :func:`~sklearn_rankeval._core.check_binary_labels`)."""
    return astype(rows.xp, rows.y_true, rows.xp.float64)


def _probabilities(rows):
    """The probabilities the metric reads (recalibrated with
    ``negative_sampling_rate``), as float64."""
    return astype(rows.xp, rows.probabilities, rows.xp.float64)


def _clipped(rows):
    """The probabilities clipped to ``[eps, 1 - eps]``, ``eps`` the machine
    epsilon of their float type (float64 for others), as
    :func:`sklearn.metrics.log_loss`."""
    xp, p = rows.xp, rows.probabilities
    if xp is np:
        eps = np.finfo(p.dtype if p.dtype.kind == "f" else np.float64).eps
    else:
        eps = xp.finfo(p.dtype if xp.isdtype(p.dtype, "real floating")
                       else xp.float64).eps
    return xp.clip(astype(xp, p, xp.float64), float(eps), float(1 - eps))


def _divide(xp, num, den):
    ok = den > 0
    return (xp.where(ok, num / xp.where(ok, den, xp.ones_like(den)),
                     xp.zeros_like(num)), ok)


# ---------------------------------------------------------------------------
# kernels (on the unranked view of a ranked input, in its namespace)
# ---------------------------------------------------------------------------
def recalibrated(p, negative_sampling_rate):
    """Probabilities of a model trained on down-sampled negatives, back on
    the scale of the full data: ``p' = p / (p + (1 - p) / r)``, ``r`` the
    share of negatives kept (He et al., ADKDD 2014).  The one definition,
    applied once by the pipeline to the scores the probability metrics
    read (in the scores' namespace, float64)."""
    xp = namespace_of(p)
    p = astype(xp, p, xp.float64)
    return p / (p + (1 - p) / negative_sampling_rate)


def _cross_entropy(rows):
    """``(y, CE)`` of every row; computed once per rows (log loss and NE of
    one report share it)."""
    def compute():
        y, p = _labels(rows), _clipped(rows)
        # one log per row: of p for a click, of 1 - p for a non-click
        return y, -rows.xp.log(rows.xp.where(y > 0, p, 1 - p))

    return rows.cached("ce", compute)


def log_loss(rows):
    """Mean cross-entropy of each group; statistics ``(sum w*CE, sum w)``."""
    _, ce = _cross_entropy(rows)
    total, weight = rows.weighted_sum(ce), rows.weighted_sum()
    value, defined = _divide(rows.xp, total, weight)
    return Partials(value, defined, rows.xp.stack([total, weight]))


def ne_finalize(sums):
    """Normalized entropy of summed ``(sum w*CE, P, N)`` (first axis)."""
    ce, pos, neg = (np.asarray(s, dtype=np.float64) for s in sums[:3])
    with np.errstate(divide="ignore", invalid="ignore"):
        total = pos + neg
        base = -(pos * np.log(pos / total) + neg * np.log(neg / total))
        out = np.where((pos > 0) & (neg > 0), ce / base, np.nan)
    return out[()] if out.ndim == 0 else out


def normalized_entropy(rows):
    """Cross-entropy over the entropy of the group's base rate (the
    arithmetic of :func:`ne_finalize`, where the group is defined)."""
    xp = rows.xp
    y, ce = _cross_entropy(rows)
    ce, pos, neg = (rows.weighted_sum(ce), rows.weighted_sum(y),
                    rows.weighted_sum(1 - y))
    defined = (pos > 0) & (neg > 0)
    one = xp.ones_like(pos)
    p, n = xp.where(defined, pos, one), xp.where(defined, neg, one)
    total = p + n
    base = -(p * xp.log(p / total) + n * xp.log(n / total))
    value = xp.where(defined, ce / base, xp.zeros_like(ce))
    return Partials(value, defined, xp.stack([ce, pos, neg]))


def calibration_ratio(rows):
    """Predicted over observed positives; statistics ``(sum w*p, sum w*y)``."""
    y, p = _labels(rows), _probabilities(rows)
    predicted, observed = rows.weighted_sum(p), rows.weighted_sum(y)
    value, defined = _divide(rows.xp, predicted, observed)
    return Partials(value, defined, rows.xp.stack([predicted, observed]))


def ece_finalize(sums):
    """ECE of summed bin statistics ``(W_1..W_B, SP_1..SP_B, SY_1..SY_B)``."""
    sums = np.asarray(sums, dtype=np.float64)
    n_bins = sums.shape[0] // 3
    W, SP, SY = (np.moveaxis(sums[i * n_bins:(i + 1) * n_bins], 0, -1)
                 for i in range(3))
    out = ece_from_sums(W, SP, SY)
    return out[()] if out.ndim == 0 else out


def expected_calibration_error(rows, n_bins=10, strategy="uniform", edges=None):
    """Weighted gap between predicted and observed rates over probability bins.

    ``edges``: the bin edges (a tuple), computed from all rows by the public
    function for ``strategy="quantile"``; None: uniform edges.
    """
    xp = rows.xp
    y, p = _labels(rows), _probabilities(rows)
    if edges is None:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    edges = np.asarray(edges, dtype=np.float64)
    if xp is np:
        bins = bin_index(p, edges)
        W, SP, SY = bin_sums(bins, rows.group, y, p, rows.weight, n_bins=n_bins,
                             n_groups=rows.n_groups)
        stats = np.concatenate([W.T, SP.T, SY.T])
        value = ece_from_sums(W, SP, SY)
        defined = ~np.isnan(value)
        return Partials(np.where(defined, value, 0.0), defined, stats)
    # another namespace: the sums of each bin, one bin at a time
    bins = xp.searchsorted(xpx.asarray(xp, edges[1:-1], rows.device), p)
    w = rows.weight
    w = xp.ones_like(p) if w is None else astype(xp, w, xp.float64)
    zero = xp.zeros_like(p)
    sums = [[rows.group_sum(xp.where(bins == b, x, zero)) for b in range(n_bins)]
            for x in (w, w * p, w * y)]
    stats = xp.stack([s for per_bin in sums for s in per_bin])
    total = xp.sum(stats[:n_bins, ...], axis=0)
    gap = xp.sum(xp.abs(stats[n_bins:2 * n_bins, ...] - stats[2 * n_bins:, ...]),
                 axis=0)
    value, defined = _divide(xp, gap, total)
    return Partials(value, defined, stats)


def xauc(rows):
    """Share of the differently labelled pairs of a group ordered as the labels.

    Pairs weighted ``w_i * w_j``, a score tie counted 1/2
    (:func:`~._concordance.weighted_concordance`, exact in O(n log n), on
    the rows in the engine's rank order).
    """
    xp = rows.xp
    # the rows of each group in the engine's rank order: no sort here
    y, s, w = rows.in_rank_order()
    if w is not None:
        # each group's weights over its largest (as the engine scales item
        # weights): a weight constant within a group is exactly 1, the
        # unweighted counts, and a group's value depends on its rows only
        largest = rows.group_reduce(w, "max")
        largest = xp.where(largest == 0, xp.ones_like(largest), largest)
        w = astype(xp, w, xp.float64) / take(xp, largest, rows.group)
    concordant, tied, total = weighted_concordance(
        None, y, s, w, n_groups=rows.n_groups, xp=xp,
        group_sizes=rows.group_size)
    value, defined = _divide(xp, concordant + 0.5 * tied, total)
    return Partials(value, defined)
