"""Curve arrays of the displays, for one ranking or for every group at once.

The points of a curve are the ends of the tie blocks of
:class:`~sklearn_rankeval._engine.RankedGroups` (the thresholds of
:func:`sklearn.metrics.precision_recall_curve` and
:func:`sklearn.metrics.roc_curve`), computed for all groups together with the
engine's segment arithmetic: no Python loop over groups.  Per-group results are
returned as flat arrays with the group id of each point.

Groups where a curve is undefined are left out, as the metrics skip them: for
precision-recall a group without a relevant item, for ROC a group with one
class only (or zero positive or negative weight).
"""

import math
from numbers import Integral

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._core import asarray, check_n_points, check_option, full, to_numpy, warn
from .._engine import rank_groups
from ._docs import fill_doc
from ._kernels import (
    all_points_curve,
    interpolated_precision,
    retrieved_cumulative,
    safe_divide,
)
from ._registry import METRICS, RECALL_LEVELS

__all__ = [
    "RECALL_LEVELS",
    "averaged_roc_curve",
    "interpolated_precision_recall_curve",
    "precision_recall_points",
    "roc_points",
]

_GAUC, _IAP = METRICS["gauc"], METRICS["interpolated_ap"]


# ---------------------------------------------------------------------------
# argument checks
# ---------------------------------------------------------------------------
def check_fpr_grid(fpr_grid):
    """An int >= 2 (equally spaced in [0, 1]) or increasing values in [0, 1]."""
    if isinstance(fpr_grid, Integral) and not isinstance(fpr_grid, (bool, np.bool_)):
        if fpr_grid < 2:
            raise ValueError(f"fpr_grid must be an integer >= 2, got {fpr_grid!r}.")
        return np.linspace(0.0, 1.0, int(fpr_grid))
    try:
        grid = np.asarray(fpr_grid, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"fpr_grid must be an integer >= 2 or an array of false positive "
            f"rates, got {fpr_grid!r}."
        ) from None
    if (
        grid.ndim != 1
        or grid.shape[0] == 0
        or not np.isfinite(grid).all()
        or (grid < 0).any()
        or (grid > 1).any()
        or (np.diff(grid) <= 0).any()
    ):
        raise ValueError(
            "fpr_grid must be an integer >= 2 or a 1-D array of strictly "
            "increasing false positive rates in [0, 1]."
        )
    return grid


def check_band(band):
    """None or two percentiles ``0 <= low < high <= 100``."""
    if band is None:
        return None
    try:
        low, high = (float(b) for b in band)
    except (TypeError, ValueError):
        raise ValueError(
            f"band must be None or two percentiles (low, high), got {band!r}."
        ) from None
    if not 0.0 <= low < high <= 100.0:
        raise ValueError(
            f"band must be two percentiles with 0 <= low < high <= 100, got {band!r}."
        )
    return low, high


def _warn_undefined(what):
    warn(
        f"No group has {what}: the curve is undefined; returning NaN.",
        UndefinedMetricWarning,
    )


# ---------------------------------------------------------------------------
# kernels on RankedGroups
# ---------------------------------------------------------------------------
def _points(rg, keep, x, y, x0, y0, defined):
    """One point per kept block, after a leading ``(x0, y0)`` per group.

    Returns the flat ``x``, ``y`` of the defined groups, in group order and
    rank order within a group, and the group index (into ``rg.labels``) of each
    point.
    """
    bg = rg.block_group[keep]
    counts = np.bincount(bg, minlength=rg.n_groups) + 1
    lead = np.cumsum(counts) - counts
    # position of the kept blocks: after their group's leading point
    before = np.cumsum(counts - 1) - (counts - 1)
    pos = lead[bg] + 1 + (np.arange(bg.shape[0]) - before[bg])
    n_points = int(counts.sum())
    out_x = np.empty(n_points)
    out_y = np.empty(n_points)
    out_x[lead], out_y[lead] = x0, y0
    out_x[pos], out_y[pos] = x[keep], y[keep]
    group = np.repeat(np.arange(rg.n_groups), counts)
    mask = defined[group]
    return out_x[mask], out_y[mask], group[mask]


def _pr_defined(rg):
    return (rg.group_n_rel > 0) & (rg.group_w_pos > 0)


def pr_curve_points(rg):
    """Raw precision-recall points of every group where the curve is defined.

    A point per retrieved tie block (precision and recall of the items ranked
    down to its end), after ``(recall 0, precision 1)``.
    """
    _, _, precision = retrieved_cumulative(rg)
    recall = safe_divide(*rg.group_cumsum_with_total(rg.block_w_pos))
    return _points(rg, rg.block_retrieved, recall, precision, 0.0, 1.0,
                   _pr_defined(rg))


def _roc_defined(rg):
    return (rg.group_w_pos > 0) & (rg.group_w_neg > 0)


def _roc_points(rg):
    """ROC points (fpr, tpr) of every group with both classes, after (0, 0).

    Every tie block, unretrieved ones included (they rank below all
    retrieved items, as for GAUC), ends one point.
    """
    fpr = safe_divide(*rg.group_cumsum_with_total(rg.block_w_neg))
    tpr = safe_divide(*rg.group_cumsum_with_total(rg.block_w_pos))
    keep = np.ones(len(fpr), dtype=bool)
    return _points(rg, keep, fpr, tpr, 0.0, 0.0, _roc_defined(rg))


def _tpr_on_grid(fpr, tpr, point_group, grid):
    """TPR of every group's ROC curve at each FPR of ``grid``, (n_groups, n_grid).

    Fawcett's vertical averaging rule: at an FPR where the curve has several
    points (a vertical segment), the highest TPR; between points, linear
    interpolation (the tied pairs' half credit of the AUC).  ``point_group``
    must number the groups 0, 1, ... in the order of the points, and every
    group's points start at FPR 0 and end at FPR 1.

    The FPR values of the points and of the grid are replaced by their rank
    among all of them, so that one ``searchsorted`` on ``group * n + rank``
    finds, for each (group, grid value), the group's last point with
    ``fpr <= x`` -- exactly, with no offsets added to floats.
    """
    n_groups = int(point_group[-1]) + 1 if point_group.shape[0] else 0
    n_grid = grid.shape[0]
    uniq, inv = np.unique(np.concatenate([fpr, grid]), return_inverse=True)
    inv = inv.reshape(-1).astype(np.int64)
    span = uniq.shape[0]
    rank_point, rank_grid = inv[: fpr.shape[0]], inv[fpr.shape[0]:]
    key = point_group.astype(np.int64) * span + rank_point
    query = (np.arange(n_groups, dtype=np.int64)[:, None] * span
             + rank_grid[None, :]).ravel()
    left = np.searchsorted(key, query, side="right") - 1
    right = np.minimum(left + 1, fpr.shape[0] - 1)
    x = np.tile(grid, n_groups)
    exact = fpr[left] == x
    step = fpr[right] - fpr[left]
    frac = np.divide(x - fpr[left], step, out=np.zeros_like(x), where=~exact)
    values = np.where(exact, tpr[left], tpr[left] + frac * (tpr[right] - tpr[left]))
    return values.reshape(n_groups, n_grid)


def averaged_roc(rg, grid, average, band):
    """Vertical average of the groups' TPR on ``grid``, preceded by the origin.

    ``band``: None or percentiles of the groups' TPR (any number of them).
    Returns ``fpr``, ``tpr``, one curve per percentile of ``band`` (or None),
    the GAUC and the number of groups averaged.
    """
    fpr, tpr, group = _roc_points(rg)
    defined = _roc_defined(rg)
    n_defined = int(defined.sum())
    fpr_out = np.concatenate([[0.0], grid])
    if n_defined == 0:
        _warn_undefined("both a relevant and a non-relevant item")
        nan = np.concatenate([[0.0], np.full(grid.shape[0], np.nan)])
        return (fpr_out, nan, None if band is None else tuple(nan for _ in band),
                np.nan, 0)
    # renumber the defined groups 0, 1, ... in point order
    renumber = np.cumsum(defined) - 1
    matrix = _tpr_on_grid(fpr, tpr, renumber[group], grid)
    if average == "weighted":
        weights = rg.group_weight[defined]
        mean = weights @ matrix / weights.sum()
    else:
        mean = matrix.mean(axis=0)
    tpr_out = np.concatenate([[0.0], mean])
    band_out = None
    if band is not None:
        band_out = tuple(np.concatenate([[0.0], q])
                         for q in np.percentile(matrix, band, axis=0))
    gauc = _GAUC.from_ranked(rg, average=average)
    return fpr_out, tpr_out, band_out, gauc, n_defined


def single_roc(rg):
    """ROC points and AUC of one ranking (NaN with a warning if one class only)."""
    fpr, tpr, _ = _roc_points(rg)
    if not _roc_defined(rg).any():
        _warn_undefined("both a relevant and a non-relevant item")
        return np.array([np.nan]), np.array([np.nan]), np.nan
    auc = _GAUC.from_ranked(rg)
    return fpr, tpr, auc


def interpolated_pr_curve(rg, n_points, recall_levels):
    """Interpolated precision (envelope of one ranking, or mean over groups).

    ``n_points=None`` is the exact envelope of a single ranking: one point per
    recall reached, after recall 0.  Returns ``precision``, ``recall``, the
    interpolated AP (the metric's value) and the number of groups averaged.
    """
    options = _IAP.check_options(n_points=n_points, recall_levels=recall_levels)
    defined = _IAP.partials(rg, **options).defined
    if n_points is None:
        curve = all_points_curve(rg)
        precision, recall = ((np.array([np.nan]), np.array([0.0])) if curve is None
                             else curve)
    else:
        # the kernel call the metric's partials cached, above
        iprec, _ = rg.cached(("iprec", n_points, recall_levels),
                             lambda: interpolated_precision(rg, n_points,
                                                            recall_levels))
        recall = np.arange(n_points) / (n_points - 1)
        precision = (iprec[defined].mean(axis=0) if defined.any()
                     else np.full(n_points, np.nan))
    if not defined.any():
        _warn_undefined("a relevant item")
        return precision, recall, np.nan, 0
    ap = _IAP.from_ranked(rg, **options)
    return precision, recall, ap, int(defined.sum())


# ---------------------------------------------------------------------------
# public (module-level) functions
# ---------------------------------------------------------------------------
def precision_recall_points(y_true, y_score, *, groups=None, sample_weight=None):
    """Raw precision-recall points of one ranking or of every group.

    One point per tie block of scores (the thresholds of
    :func:`sklearn.metrics.precision_recall_curve`), in rank order, after the
    point ``(recall 0, precision 1)``.  Items with score ``-inf`` are not
    retrieved: they count in the recall's denominator but add no point.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_queries, n_items)
        Relevance (``>= 0``); ``y_true > 0`` is relevant.
    y_score : array-like of shape (n_samples,) or (n_queries, n_items)
        Scores, higher ranks first.
    groups : array-like of shape (n_samples,), default=None
        Query id of each row; None: one ranking.
    sample_weight : array-like of shape (n_samples,), default=None
        Item weights, as in :func:`sklearn.metrics.precision_recall_curve`.

    Returns
    -------
    precision : ndarray of shape (n_points,)
        Precision of the items ranked down to the end of each block.
    recall : ndarray of shape (n_points,)
        Recall at the same points, non-decreasing within each group.
    group : ndarray of shape (n_points,)
        Group id of each point (0 for one ranking).  Groups without a
        relevant item have no points.

    See Also
    --------
    sklearn.metrics.precision_recall_curve : The same points, in reverse order.

    Examples
    --------
    >>> from sklearn_rankeval._metrics._curves import precision_recall_points
    >>> precision, recall, group = precision_recall_points(
    ...     [1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> recall.tolist()
    [0.0, 0.5, 0.5, 1.0, 1.0]
    >>> precision.round(4).tolist()
    [1.0, 1.0, 0.5, 0.6667, 0.5]
    """
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight,
                       merge=False)
    recall, precision, group = pr_curve_points(rg)
    return precision, recall, rg.labels[group]


def roc_points(y_true, y_score, *, groups=None, sample_weight=None):
    """ROC points of one ranking or of every group with both classes.

    One point per tie block (the thresholds of :func:`sklearn.metrics.roc_curve`
    with ``drop_intermediate=False``), after ``(0, 0)``.  Items with score
    ``-inf`` form the last block, as for :func:`~sklearn_rankeval.gauc_score`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_queries, n_items)
        Relevance (``>= 0``); ``y_true > 0`` is positive.
    y_score : array-like of shape (n_samples,) or (n_queries, n_items)
        Scores, higher ranks first.
    groups : array-like of shape (n_samples,), default=None
        Query id of each row; None: one ranking.
    sample_weight : array-like of shape (n_samples,), default=None
        Item weights, as in :func:`sklearn.metrics.roc_curve`.

    Returns
    -------
    fpr : ndarray of shape (n_points,)
        False positive rate at the end of each block.
    tpr : ndarray of shape (n_points,)
        True positive rate at the same points.
    group : ndarray of shape (n_points,)
        Group id of each point (0 for one ranking).  Groups with one class
        only have no points.

    See Also
    --------
    sklearn.metrics.roc_curve : The same points for one ranking.

    Examples
    --------
    >>> from sklearn_rankeval._metrics._curves import roc_points
    >>> fpr, tpr, group = roc_points([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight,
                       merge=False)
    fpr, tpr, group = _roc_points(rg)
    return fpr, tpr, rg.labels[group]


def averaged_roc_curve(y_true, y_score, *, groups=None, sample_weight=None,
                       fpr_grid=101, average="weighted", band=(25, 75)):
    """Vertical average of the groups' ROC curves on a common FPR grid.

    For each group with both classes, its true positive rate at each FPR of
    the grid is read off its ROC curve (the highest TPR at that FPR, linear
    between the curve's points: Fawcett's vertical averaging); the values are
    averaged over groups.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_queries, n_items)
        Relevance (``>= 0``); ``y_true > 0`` is positive.
    y_score : array-like of shape (n_samples,) or (n_queries, n_items)
        Scores, higher ranks first.
    groups : array-like of shape (n_samples,), default=None
        Query id of each row; None: one ranking.
    sample_weight : array-like of shape (n_samples,), default=None
        Item weights, as for :func:`~sklearn_rankeval.gauc_score`.
    fpr_grid : int or array-like, default=101
        Number of equally spaced false positive rates from 0 to 1, or the
        increasing rates themselves.
    average : {'weighted', 'macro'}, default='weighted'
        ``'weighted'``: groups weighted by their total sample weight (number
        of rows), as :func:`~sklearn_rankeval.gauc_score`; ``'macro'``: each
        group counts once.
    band : tuple of two floats or None, default=(25, 75)
        Percentiles of the groups' TPR at each grid value (each group counted
        once); None: no band.

    Returns
    -------
    fpr : ndarray of shape (n_grid + 1,)
        0, then the grid.
    tpr : ndarray of shape (n_grid + 1,)
        0 (every curve starts at the origin), then the averaged TPR.
    tpr_band : tuple of two ndarrays of shape (n_grid + 1,) or None
        The lower and upper percentiles.

    See Also
    --------
    roc_points : The curves that are averaged.

    Examples
    --------
    >>> from sklearn_rankeval._metrics._curves import averaged_roc_curve
    >>> fpr, tpr, _ = averaged_roc_curve(
    ...     [1, 0, 0, 1, 0], [0.9, 0.5, 0.1, 0.2, 0.7], groups=[1, 1, 1, 2, 2],
    ...     fpr_grid=3, average="macro", band=None)
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0])
    """
    grid = check_fpr_grid(fpr_grid)
    check_option(average, "average", ("weighted", "macro"))
    band = check_band(band)
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight,
                       merge=False)
    fpr, tpr, tpr_band, _, _ = averaged_roc(rg, grid, average, band)
    return fpr, tpr, tpr_band


@fill_doc
def interpolated_precision_recall_curve(
    y_true, y_score, *, groups=None, n_points=11, sample_weight=None,
    recall_levels="exact",
):
    """Interpolated precision at fixed recall levels, averaged over queries.

    The interpolated precision of a query at recall :math:`r` is the highest
    precision it reaches at any recall :math:`\\geq r` (0 if it never reaches
    :math:`r`); it is taken at the recall levels :math:`0, \\frac{1}{N-1},
    \\dots, 1` and averaged over queries, which is the TREC recall-precision
    graph (``N=11``).

    Read more in the :ref:`User Guide <interpolated-ap>`.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    n_points : int >= 2 or None, default=11
        Number of equally spaced recall levels from 0 to 1.  ``None`` returns
        the whole interpolated curve of a single ranking (one point per
        distinct recall reached, after recall 0); it is not available with
        several groups.
    sample_weight : array-like, default=None
        Item weights, as for :func:`mean_average_precision_score`.
    %(recall_levels)s

    Returns
    -------
    precision : ndarray of shape (n_points,)
        Interpolated precision at each recall level, averaged over the queries
        that have a relevant item (each query counts once).  Under
        ``array_api_dispatch``, an array of the input's namespace and device
        (:ref:`array_api`), as ``recall``.
    recall : ndarray of shape (n_points,)
        The recall levels, increasing from 0 to 1.

    See Also
    --------
    interpolated_average_precision_score : The mean of ``precision``.
    sklearn.metrics.precision_recall_curve : The raw curve of one ranking.

    Notes
    -----
    The mean of ``precision`` is
    ``interpolated_average_precision_score(..., average="macro")``.  Queries
    without a relevant item are left out; if there are none the precision is
    NaN with an ``UndefinedMetricWarning``.

    References
    ----------
    .. [1] C. D. Manning, P. Raghavan and H. Schütze, "Introduction to
       Information Retrieval", Cambridge University Press, 2008, section 8.4
       (interpolated precision, the 11-point curve).
    .. [2] M. Everingham et al., "The PASCAL Visual Object Classes (VOC)
       Challenge", IJCV 2010 (11-point AP of VOC 2007).

    Examples
    --------
    >>> from sklearn_rankeval import interpolated_precision_recall_curve
    >>> y_true = [1, 0, 1, 0]
    >>> y_score = [0.9, 0.8, 0.7, 0.1]
    >>> precision, recall = interpolated_precision_recall_curve(
    ...     y_true, y_score, n_points=5)
    >>> recall.tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> precision.round(4).tolist()
    [1.0, 1.0, 1.0, 0.6667, 0.6667]
    """
    n_points = check_n_points(n_points)
    check_option(recall_levels, "recall_levels", RECALL_LEVELS)
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight,
                       merge=False)
    xp = rg.xp
    if n_points is None:
        if rg.n_groups != 1:
            raise ValueError(
                "n_points=None (the whole curve) needs a single ranking; with "
                f"{rg.n_groups} groups pass a number of recall levels, e.g. 101."
            )
        curve = all_points_curve(rg)
        if curve is None:
            warn(
                "y_true has no relevant item: the interpolated precision is "
                "undefined; returning NaN.",
                UndefinedMetricWarning,
            )
            return (full(xp, 1, math.nan, rg.device),
                    full(xp, 1, 0.0, rg.device))
        return curve
    iprec, defined = interpolated_precision(rg, n_points, recall_levels)
    recall = asarray(xp, np.arange(n_points) / (n_points - 1), rg.device)
    if not bool(xp.any(defined)):
        warn(
            "No group has a relevant item: the interpolated precision is "
            "undefined; returning NaN.",
            UndefinedMetricWarning,
        )
        return full(xp, n_points, math.nan, rg.device), recall
    return xp.mean(iprec[defined], axis=0), recall


def rank_for_curves(y_true, y_score, *, groups=None, sample_weight=None):
    """Validate and rank the input once, for several of the curve helpers above.

    The displays build their curves and summary values through this module
    only; the ranked input is opaque to them.  They plot on the host, so
    Array API inputs are copied there first.
    """
    y_true, y_score, groups, sample_weight = (
        to_numpy(a) for a in (y_true, y_score, groups, sample_weight))
    return rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight,
                       merge=False)


def check_curve_n_points(n_points, *, allow_none):
    """``n_points`` as the metrics check it; None only where allowed."""
    n_points = check_n_points(n_points)
    if n_points is None and not allow_none:
        raise ValueError("n_points must be an integer >= 2, got None.")
    return n_points
