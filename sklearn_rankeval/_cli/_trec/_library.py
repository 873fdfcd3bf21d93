"""trec_eval's measures that the library has, computed by the library.

Each measure is ``measure(arrays, params, options) -> ndarray (n_params,
n_queries)``: the registry's metric on the run's rankings (built once per
run, :class:`~._arrays.TrecArrays`) with ``average=None``, one row per
parameter.  A query without a relevant document counts 0 (``undefined=0.0``),
as in trec_eval.
"""

import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from ..._metrics import (
    METRICS,
    TREC_EVAL,
    interpolated_precision,
    recall_level_cutoffs,
    resolve,
)
from ._arrays import TrecError

__all__ = ["LEVELS", "bpref", "eleven_point_average", "gauc", "iprec_at_recall",
           "library", "rbp", "rbp_resid"]

#: trec_eval's default recall levels of iprec_at_recall.
LEVELS = tuple(j / 10 for j in range(11))


def _rows(ranked, metric, params, **options):
    """Per-query values of a registry metric, one row per parameter (``k``),
    with the ``"trec_eval"`` convention's options and its value of a query
    without relevant documents (0); ``options`` add the measure's own."""
    spec = METRICS[metric]
    out = []
    for p in params:
        preset, switches = resolve(spec, "trec_eval",
                                   {**({} if p is None else {"k": p}), **options})
        out.append(spec.from_ranked(ranked, average=None,
                                    undefined=switches["undefined"], **preset))
    return np.array(out, dtype=np.float64)


def _binary_rbp(ranked, p):
    """The library's (binary) RBP per query, 0 without a relevant document:
    the summand of trec_eval's graded rbp (which no convention preset holds:
    its gain is the qrels value)."""
    return METRICS["rbp"].from_ranked(ranked, average=None, undefined=0.0, p=p)


def library(name, *, gain=False):
    """trec_eval's measure ``name``: the registry's metric of that name
    (:data:`~sklearn_rankeval._metrics.TREC_EVAL`) on the binary ranking (the
    graded one if ``gain``) under the ``"trec_eval"`` convention; the
    measure's parameter, if any, is the metric's ``k``."""
    metric = TREC_EVAL[name]

    def measure(arr, params, opts):
        return _rows(arr.ranked(gain), metric, params)

    return measure


def bpref(arr, params, opts):
    """bpref on the judged documents only (trec_eval skips the others)."""
    return _rows(arr.ranked_judged(), "bpref", params)


def gauc(arr, params, opts):
    """ROC AUC per query; NaN for a query with one class only."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return np.array([METRICS["gauc"].from_ranked(arr.ranked(), average=None)
                         for _ in params])


# -- interpolated precision ---------------------------------------------------
def _level_grid(levels):
    """(n_points, indices) of a grid 0, 1/(n-1), ..., 1 holding ``levels``."""
    for n_points in (11, 5, 101):
        idx = np.round(np.asarray(levels) * (n_points - 1)).astype(int)
        if np.allclose(idx / (n_points - 1), levels, rtol=0, atol=1e-12):
            return n_points, idx
    raise TrecError(f"recall levels must have at most 2 decimals, got {levels}")


def _zero_over_zero(arr, n_points, opts):
    """Where trec_eval's interpolated precision is 0/0, (n_queries, n_points).

    trec_eval (``m_iprec_at_recall.c``, ``m_11pt_avg.c``) starts from the
    precision ``num_rel_ret / num_ret`` and gives it to every level needing
    no more than ``num_rel_ret`` relevant documents: with ``-J`` a query can
    be left without any document (``form_res_rels.c``), and then the levels
    needing none (``cutoff == 0``) get 0/0, NaN, printed ``-nan``.  (Without
    ``-J`` a query missing from the run is evaluated on a one-document dummy
    ranking, ``trec_eval.c``, so it gets 0.)
    """
    empty = arr.judged_only & (arr.num_ret == 0)
    cut = recall_level_cutoffs(np, arr.num_rel, n_points, opts["recall_levels"])
    return empty[:, None] & (cut == 0)


def iprec_at_recall(arr, params, opts):
    """Interpolated precision at each level, per query, for all queries at once."""
    n_points, idx = _level_grid(params)
    rule = opts["recall_levels"]
    rg = arr.ranked()
    # the kernel of interpolated_ap, shared with 11pt_avg through the cache
    iprec, defined = rg.cached(("iprec", n_points, rule), lambda: (
        interpolated_precision(rg, n_points, rule)))
    # queries without a relevant document: 0, as in trec_eval
    iprec = np.where(defined[:, None], iprec, 0.0)[:, idx]
    return np.where(_zero_over_zero(arr, n_points, opts)[:, idx], np.nan, iprec).T


def eleven_point_average(arr, params, opts):
    """trec_eval's 11pt_avg: interpolated AP over 11 levels, or over the
    levels given (``11pt_avg.0.25,0.5``)."""
    out = []
    for text in params:
        if text is not None:
            levels = [float(v) for v in text.split(",")]
            out.append(iprec_at_recall(arr, levels, opts).mean(axis=0))
            continue
        values = _rows(arr.ranked(), "interpolated_ap", (None,), n_points=11,
                       recall_levels=opts["recall_levels"])[0]
        # level 0 needs no relevant document: 0/0 whenever any level is
        out.append(np.where(_zero_over_zero(arr, 11, opts).any(axis=1),
                            np.nan, values))
    return np.array(out)


# -- rank-biased precision -----------------------------------------------------
def _persistence(text):
    if text is None:
        return 0.9
    name, _, value = text.partition("=")
    try:
        p = float(value)
    except ValueError:
        p = None
    if name != "p" or p is None or not 0 < p < 1:
        raise TrecError(f"rbp takes p=<persistence in (0, 1)>, got {text!r}")
    return p


def rbp(arr, params, opts):
    """trec_eval's rbp: the gain is the qrels value (not ``-l``), divided by
    the query's largest qrels value when that exceeds 1.

    The gain is a sum of indicators ``rel >= v`` over the positive qrels
    values ``v`` (weighted by the steps between them), so the measure is the
    library's binary RBP of each indicator, summed.
    """
    rel = arr.rel
    top = np.maximum.reduceat(np.clip(rel, 0, None), arr.offsets[:-1])
    values = np.unique(rel[rel > 0])
    steps = np.diff(values, prepend=0)
    out = []
    for text in params:
        p = _persistence(text)
        total = np.zeros(len(arr.qids))
        for v, step in zip(values.tolist(), steps.tolist()):
            ranked = arr.ranked_by(("at_least", v), lambda v=v: rel >= v)
            total += step * _binary_rbp(ranked, p)
        out.append(total / np.maximum(top, 1))
    return np.array(out)


def rbp_resid(arr, params, opts):
    """trec_eval's rbp_resid: the library's RBP residual with the unjudged
    documents (not in the qrels, or judged negative) as unjudged, for every
    query (relevant documents or not); 0 for a query without an unjudged
    retrieved document (trec_eval writes it only when it meets one)."""
    code, _, rel = arr.retrieved()
    has_unjudged = arr.per_query_sum(code, rel < 0) > 0
    unjudged = arr.ranked_by("unjudged", lambda: arr.rel < 0)
    out = []
    for text in params:
        p = _persistence(text)
        # the residual's two parts, as rank_biased_precision_residual adds
        # them: the ranks beyond the list, and the unjudged documents' ranks
        beyond = METRICS["rbp_residual"]
        rank = METRICS["rbp"]
        resid = (beyond.partials(arr.ranked(), **beyond.check_options(p=p)).value
                 + rank.partials(unjudged, **rank.check_options(p=p)).value)
        out.append(np.where(has_unjudged, resid, 0.0))
    return np.array(out)
