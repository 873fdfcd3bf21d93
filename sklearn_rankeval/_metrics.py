"""Grouped ranking metrics.

Each public ``*_score`` function validates its options, builds the engine's
:class:`~sklearn_rankeval._engine.RankedGroups` once and hands it to a private
``_<metric>_per_group`` kernel, which returns one value per group for all
groups at once (block-level arithmetic, no loop over groups), plus a mask of
the groups where the metric is defined.  :func:`_aggregate` applies the
undefined-group policy and the ``average`` option.
"""

import warnings

import numpy as np
from scipy.special import gammaln
from sklearn.exceptions import UndefinedMetricWarning

from ._docs import fill_doc
from ._engine import discount_cumsum, rank_groups
from ._validation import (
    check_average,
    check_k,
    check_n_points,
    check_option,
    check_undefined,
)

__all__ = [
    "gauc_score",
    "hit_rate_score",
    "interpolated_average_precision_score",
    "interpolated_precision_recall_curve",
    "mean_average_precision_score",
    "mean_reciprocal_rank_score",
    "ndcg_score",
    "precision_at_k_score",
    "recall_at_k_score",
]

_QUERY_AVERAGES = ("macro", "weighted")
_POOLED_AVERAGES = ("micro", "macro", "weighted")
_RECALL_LEVELS = ("exact", "trec_eval_9", "trec_eval_10")


# ---------------------------------------------------------------------------
# aggregation over groups
# ---------------------------------------------------------------------------
def _aggregate(
    values, defined, rg, *, average, undefined, query_weighted, name, micro=None
):
    """Apply the undefined-group policy, then average the per-group values.

    ``query_weighted`` metrics (MRR, NDCG, P@k, R@k, HR@k) weight each group
    by its query weight under ``"macro"``; item-weighted ones (GAUC, AP) count
    each group once.  ``"weighted"`` uses each group's total sample weight.
    ``micro`` is a pair of per-group (numerator, denominator) to pool.
    """
    if undefined == "raise" and not defined.all():
        bad = rg.labels[~defined]
        raise ValueError(
            f"{name} is undefined for {len(bad)} group(s), e.g. group {bad[0]!r} "
            f"(no relevant item{', or a single class' if name == 'GAUC' else ''}). "
            f"Pass undefined='skip' to leave them out or a number to count them "
            f"with that value."
        )
    if not isinstance(undefined, str):
        values = np.where(defined, values, undefined)
        defined = np.ones_like(defined)
    if not defined.any():
        warnings.warn(
            f"{name} is undefined for every group (no group has a relevant item"
            f"{' and an irrelevant one' if name == 'GAUC' else ''}); returning NaN.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        return np.full(rg.n_groups, np.nan) if average is None else float("nan")
    if average is None:
        return np.where(defined, values, np.nan)

    qw = rg.query_weight if query_weighted else None
    if average == "micro":
        num, den = micro
        if qw is not None:
            num, den = num * qw, den * qw
        num, den = num[defined].sum(), den[defined].sum()
    else:
        if average == "weighted":
            w = rg.group_weight[defined]
        elif qw is not None:
            w = qw[defined]
        else:
            return float(np.mean(values[defined]))
        num, den = np.dot(w, values[defined]), w.sum()
    if den == 0:
        warnings.warn(
            f"{name}: the groups that define it have zero total weight; "
            f"returning NaN.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        return float("nan")
    return float(num / den)


def _divide(num, den):
    """num / den where den > 0, else 0 (the caller masks those groups)."""
    num = np.asarray(num, dtype=np.float64)
    return np.divide(num, den, out=np.zeros_like(num), where=den > 0)


# ---------------------------------------------------------------------------
# per-group kernels
# ---------------------------------------------------------------------------
def _gauc_per_group(rg):
    """ROC AUC of each group: tied (positive, negative) pairs count 1/2.

    Unweighted, it is the Mann-Whitney statistic from mid-ranks: a block of
    ``m`` items below ``s`` others in a group of ``S`` has ascending mid-rank
    ``S - s - (m - 1)/2``, so twice the number of correctly ordered pairs
    (ties counting 1/2) is ``2 P S - sum_b p_b (2 s_b + m_b - 1) - P (P + 1)``,
    exact in integers and with no cumulative sum.  Weighted, the negative
    weight below each block is accumulated instead.
    """
    wp, wn = rg.block_w_pos, rg.block_w_neg
    pos_total, neg_total = rg.group_w_pos, rg.group_w_neg
    if rg.weighted:
        below = neg_total[rg.block_group] - rg.group_cumsum(wn)
        twice = rg.group_sum(wp * (2 * below + wn))
    else:
        tied_offset = rg.group_sum(wp * (2 * rg.block_start + rg.block_size - 1))
        twice = (2 * pos_total * rg.group_size - tied_offset
                 - pos_total * (pos_total + 1))
    den = 2 * pos_total * neg_total
    return _divide(twice, den), den > 0


def _retrieved_cumulative(rg):
    """Relevant weight, total weight and precision at the end of each block."""
    ret = rg.block_retrieved
    every = bool(ret.all())
    wp = rg.block_w_pos if every else np.where(ret, rg.block_w_pos, 0)
    cum_wp = rg.group_cumsum(wp)
    if rg.weighted:
        wn = rg.block_w_neg if every else np.where(ret, rg.block_w_neg, 0)
        cum_w = rg.group_cumsum(wp + wn)
    else:
        # items ranked through the end of the block (the unretrieved block,
        # always last, adds no relevant item: its precision never raises a
        # maximum, and it is 0 when nothing is retrieved)
        cum_w = rg.block_start + rg.block_size
    return wp, cum_wp, _divide(cum_wp, cum_w)


def _cutoff_fraction(rg, k):
    """Share of each block ranked within the top k (0 for unretrieved blocks).

    Under a uniformly random order of the tied items, it is also the
    probability that any one item of the block lands in the top k.
    """
    frac = np.clip((k - rg.block_start) / rg.block_size, 0.0, 1.0)
    frac[~rg.block_retrieved] = 0.0
    return frac


def _ap_per_group(rg, k=None, k_denominator="min"):
    """Average precision with threshold (tie-block) precision, optionally @k."""
    wp, _, precision = _retrieved_cumulative(rg)
    contrib = wp * precision
    if k is not None:
        contrib = contrib * _cutoff_fraction(rg, k)
    total = rg.group_sum(contrib)
    n_rel, w_rel = rg.group_n_rel, rg.group_w_pos
    defined = (n_rel > 0) & (w_rel > 0)
    if k is None:
        return _divide(total, w_rel), defined
    denom = np.minimum(n_rel, k) if k_denominator == "min" else n_rel
    if rg.weighted:
        total = total * _divide(n_rel, w_rel)
    return _divide(total, denom), defined


def _hits_per_group(rg, k):
    """Expected number of relevant items in the top k (ties in random order)."""
    return rg.group_sum(rg.block_n_rel * _cutoff_fraction(rg, k))


def _rr_per_group(rg, k=None):
    """Expected reciprocal rank of the first relevant item (ties in random order).

    The first relevant item lies in the group's first retrieved block with a
    relevant item: ``s`` items above it, ``m`` items in it, ``r`` relevant.
    Its position ``J`` within the block is the minimum of ``r`` positions drawn
    without replacement from ``1..m``: ``P(J = j) = C(m-j, r-1) / C(m, r)``.
    The expectation of ``1/(s + J)`` (counting only ``s + J <= k``) is summed
    over one expanded row per (block, j): at most one row per item in total.
    """
    candidate = np.flatnonzero(rg.block_retrieved & (rg.block_n_rel > 0))
    grp = rg.block_group[candidate]
    is_first = np.empty(len(candidate), dtype=bool)
    is_first[:1] = True
    np.not_equal(grp[1:], grp[:-1], out=is_first[1:])
    first = candidate[is_first]
    s = rg.block_start[first]
    m = rg.block_size[first]
    r = rg.block_n_rel[first]
    n_terms = m - r + 1
    if k is not None:
        n_terms = np.clip(np.minimum(n_terms, k - s), 0, None)
    owner = np.repeat(np.arange(len(first)), n_terms)
    j = np.arange(owner.shape[0]) - np.repeat(np.cumsum(n_terms) - n_terms, n_terms) + 1
    mm, rr = m[owner], r[owner]
    # exact probabilities in the common cases: r == m (J = 1) and r == 1
    # (uniform); log-binomials only for the rest
    p = np.where(rr == mm, 1.0, 1.0 / mm)
    general = np.flatnonzero((rr > 1) & (rr < mm))
    if general.size:
        mg, rg_, jg = mm[general], rr[general], j[general]
        log_p = (gammaln(mg - jg + 1) - gammaln(rg_) - gammaln(mg - jg - rg_ + 2)
                 - gammaln(mg + 1) + gammaln(rg_ + 1) + gammaln(mg - rg_ + 1))
        p[general] = np.exp(log_p)
    rr_first = np.bincount(owner, weights=p / (s[owner] + j), minlength=len(first))
    values = np.zeros(rg.n_groups)
    values[grp[is_first]] = rr_first
    return values, rg.group_n_rel > 0


def _ndcg_per_group(rg, k=None):
    """sklearn's tie-averaged DCG over the ideal DCG of all the group's items."""
    disc = discount_cumsum(rg.max_group_size, k)
    block_disc = disc[rg.block_start + rg.block_size] - disc[rg.block_start]
    gain = np.where(rg.block_retrieved, rg.block_gain / rg.block_size, 0.0)
    dcg = rg.group_sum(gain * block_disc)
    idcg = rg.ideal_dcg(k)
    return _divide(dcg, idcg), (rg.group_n_rel > 0) & (idcg > 0)


def _trec_eval_cutoffs(n_rel, n_points, recall_levels):
    """Relevant items needed to reach each level, (n_groups, n_points), int64."""
    j = np.arange(n_points)
    if recall_levels == "exact":  # ceil(j * R / (n_points - 1)), in integers
        return (j[None, :] * n_rel[:, None] + (n_points - 2)) // (n_points - 1)
    x = (j / (n_points - 1))[None, :] * n_rel[:, None].astype(np.float64)
    if recall_levels == "trec_eval_9":  # (long) (l * R + 0.9)
        return np.floor(x + 0.9).astype(np.int64)
    down = np.floor(x)  # trec_eval 10: lround(l * R), halves away from zero
    return (down + (x - down >= 0.5)).astype(np.int64)


def _iprec_per_group(rg, n_points, recall_levels="exact"):
    """Interpolated precision at recall levels j/(n_points-1), (n_groups, n_points).

    The precision-recall points are the ends of the retrieved tie blocks; the
    interpolated precision at level l is the maximum precision over the points
    whose recall is >= l, and 0 where no point reaches l.  For each (group,
    level) the first block reaching the level is found by one ``searchsorted``
    on a key that increases along the blocks; the answer is that block's
    suffix maximum of precision.
    """
    wp, cum_wp, precision = _retrieved_cumulative(rg)
    smax = rg.group_suffix_max(precision)
    groups = np.arange(rg.n_groups)
    bg = rg.block_group.astype(np.int64)
    if rg.weighted:
        # level index reached by each block: max j with reach*(N-1) >= j*W
        if recall_levels != "exact":
            raise ValueError(
                f"recall_levels={recall_levels!r} counts relevant items and does "
                f"not support sample_weight; use recall_levels='exact'."
            )
        # the group total is read off the same cumulative sum, so that the
        # recall of a block that completes the group is exactly 1
        reach, w_rel = rg.group_cumsum_with_total(rg.block_w_pos)
        t = reach * (n_points - 1)
        level = np.floor(_divide(t, w_rel))
        level = np.where((level + 1) * w_rel <= t, level + 1, level)
        level = np.where(level * w_rel > t, level - 1, level)
        level = np.clip(level, 0, n_points - 1).astype(np.int64)
        # an unretrieved block (always its group's last) is no point: give it
        # the level of the block before it so that it is never the first to
        # reach a level that a retrieved block reaches
        unretrieved = np.flatnonzero(~rg.block_retrieved)
        is_first = np.zeros(len(bg), dtype=bool)
        is_first[rg.group_first_block] = True
        level[unretrieved] = np.where(
            is_first[unretrieved], 0, level[np.maximum(unretrieved - 1, 0)]
        )
        key = bg * n_points + level
        span = n_points
        query = groups[:, None] * span + np.arange(n_points)[None, :]
    else:
        n_rel = rg.group_n_rel
        span = int(n_rel.max()) + 2
        key = bg * span + cum_wp
        cutoffs = _trec_eval_cutoffs(n_rel, n_points, recall_levels)
        query = groups[:, None] * span + np.minimum(cutoffs, span - 1)
    idx = np.searchsorted(key, query.ravel(), side="left")
    idx_c = np.minimum(idx, len(key) - 1)
    valid = (idx < len(key)) & (bg[idx_c] == np.repeat(groups, n_points))
    iprec = np.where(valid, smax[idx_c], 0.0).reshape(rg.n_groups, n_points)
    return iprec, (rg.group_n_rel > 0) & (rg.group_w_pos > 0)


def _all_points_ap_per_group(rg):
    """VOC 2010+ all-points interpolated AP: recall steps times suffix-max precision."""
    wp, _, precision = _retrieved_cumulative(rg)
    smax = rg.group_suffix_max(precision)
    w_rel = rg.group_w_pos
    return _divide(rg.group_sum(wp * smax), w_rel), (rg.group_n_rel > 0) & (w_rel > 0)


# ---------------------------------------------------------------------------
# each metric from an already ranked input (shared by the functions and by
# ranking_report, which ranks once for many metrics)
# ---------------------------------------------------------------------------
def _cached(rg, key, kernel, *args):
    """A kernel's per-group result, computed once per ranked input.

    ``ranking_report`` asks for a metric's value and its number of defined
    groups; the second request reuses the first computation.
    """
    return rg._cached((key, *args), lambda: kernel(rg, *args))


def _gauc_from_ranked(rg, *, average="weighted", undefined="skip"):
    values, defined = _cached(rg, "gauc", _gauc_per_group)
    return _aggregate(values, defined, rg, average=average, undefined=undefined,
                      query_weighted=False, name="GAUC")


def _mrr_from_ranked(rg, *, k=None, average="macro", undefined="skip"):
    rg.check_query_weights("mean_reciprocal_rank_score")
    values, defined = _cached(rg, "rr", _rr_per_group, k)
    return _aggregate(values, defined, rg, average=average, undefined=undefined,
                      query_weighted=True, name="MRR")


def _map_from_ranked(rg, *, k=None, average="macro", undefined="skip",
                     k_denominator="min"):
    values, defined = _cached(rg, "ap", _ap_per_group, k, k_denominator)
    return _aggregate(values, defined, rg, average=average, undefined=undefined,
                      query_weighted=False, name="MAP")


def _iap_from_ranked(rg, *, n_points=11, average="macro", undefined="skip",
                     recall_levels="exact"):
    if n_points is None:
        values, defined = _cached(rg, "all_points", _all_points_ap_per_group)
    else:
        iprec, defined = _cached(rg, "iprec", _iprec_per_group, n_points,
                                 recall_levels)
        values = iprec.mean(axis=1)
    return _aggregate(values, defined, rg, average=average, undefined=undefined,
                      query_weighted=False, name="interpolated AP")


def _hit_rate_from_ranked(rg, *, k=10, average="micro", undefined="skip"):
    return _hits_metric(rg, k, average, undefined, "hit_rate")


def _precision_from_ranked(rg, *, k=10, average="macro", undefined="skip"):
    return _hits_metric(rg, k, average, undefined, "precision")


def _recall_from_ranked(rg, *, k=10, average="macro", undefined="skip"):
    return _hits_metric(rg, k, average, undefined, "recall")


def _ndcg_from_ranked(rg, *, k=None, average="macro", undefined="skip"):
    rg.check_query_weights("ndcg_score")
    values, defined = _cached(rg, "ndcg", _ndcg_per_group, k)
    return _aggregate(values, defined, rg, average=average, undefined=undefined,
                      query_weighted=True, name="NDCG")


# ---------------------------------------------------------------------------
# public metric functions
# ---------------------------------------------------------------------------
@fill_doc
def gauc_score(
    y_true, y_score, *, groups=None, sample_weight=None, average="weighted",
    undefined="skip",
):
    """Group AUC: the ROC AUC of each group, averaged over groups.

    .. math::

        \\mathrm{GAUC} = \\frac{\\sum_g w_g \\, \\mathrm{AUC}_g}{\\sum_g w_g},
        \\qquad \\mathrm{AUC}_g = \\frac{1}{P_g N_g} \\sum_{i \\in P_g}
        \\sum_{j \\in N_g} \\left( [s_i > s_j] + \\tfrac{1}{2} [s_i = s_j] \\right)

    where :math:`P_g` and :math:`N_g` are the positive (``y_true > 0``) and
    negative items of group :math:`g` and :math:`w_g` its number of rows (its
    total sample weight), as used for CTR models evaluated per user.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    sample_weight : array-like of shape (n_samples,), default=None
        Item weights, with the same effect as in
        :func:`sklearn.metrics.roc_auc_score` within each group.  A group's
        weight for ``average="weighted"`` is the sum of its rows' weights.
    average : {'weighted', 'macro'} or None, default='weighted'
        ``'weighted'``: groups weighted by their number of rows (total sample
        weight), the usual GAUC.  ``'macro'``: each group counts once.
        ``None``: the AUC of every group.
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    sklearn.metrics.roc_auc_score : The AUC of one ranking.
    mean_average_precision_score : Grouped average precision.

    Notes
    -----
    **Ties**: a tied (positive, negative) pair counts 1/2, so each group's AUC
    equals :func:`sklearn.metrics.roc_auc_score` on its rows.  **Undefined
    groups**: a group with only positives or only negatives (or zero total
    positive or negative weight) has no AUC and is skipped by default, as is
    usual for GAUC.  Scores of ``-inf`` rank below every finite score and tie
    with each other.

    References
    ----------
    .. [1] G. Zhou et al., "Deep Interest Network for Click-Through Rate
       Prediction", KDD 2018 (group AUC weighted by impressions).

    Examples
    --------
    >>> from sklearn_rankeval import gauc_score
    >>> y_true = [0, 1, 0, 1, 1, 0]
    >>> y_score = [0.1, 0.4, 0.35, 0.8, 0.35, 0.1]
    >>> groups = ["u1", "u1", "u2", "u2", "u2", "u2"]
    >>> # u1 is ranked perfectly: AUC 1.  In u2, of the four (positive,
    >>> # negative) pairs three are ordered right and one is tied: AUC 3.5/4
    >>> gauc_score(y_true, y_score, groups=groups, average=None).tolist()
    [1.0, 0.875]
    >>> # weighted by the number of rows: (2 * 1 + 4 * 0.875) / 6
    >>> round(gauc_score(y_true, y_score, groups=groups), 4)
    0.9167
    """
    average = check_average(average, _QUERY_AVERAGES)
    undefined = check_undefined(undefined)
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight)
    return _gauc_from_ranked(rg, average=average, undefined=undefined)


@fill_doc
def mean_reciprocal_rank_score(
    y_true, y_score, *, groups=None, k=None, labels=None, sample_weight=None,
    average="macro", undefined="skip",
):
    """Mean reciprocal rank of the first relevant item of each query.

    .. math::

        \\mathrm{MRR} = \\frac{1}{|Q|} \\sum_{q \\in Q} \\frac{1}{\\mathrm{rank}_q}

    where :math:`\\mathrm{rank}_q` is the rank of the first relevant item of
    query :math:`q` (its reciprocal counts 0 when it is below ``k`` or not
    retrieved).

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    %(k_none)s
    %(labels)s
    %(sample_weight_query)s
    %(average_query)s
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    hit_rate_score : Share of relevant items in the top k.
    mean_average_precision_score : Mean of the per-query average precision.

    Notes
    -----
    **Ties**: the value is the expected reciprocal rank over all orderings of
    the tied items (``1/m * (1/(s+1) + ... + 1/(s+m))`` for one relevant item
    tied with ``m - 1`` others below ``s`` items), never the input order.
    **Undefined groups**: a query with no relevant item is skipped by default.
    Without ties the value equals trec_eval's ``recip_rank``.

    References
    ----------
    .. [1] E. M. Voorhees, "The TREC-8 Question Answering Track Report",
       TREC 1999 (mean reciprocal rank).
    .. [2] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008 (the expected value under ties).

    Examples
    --------
    >>> from sklearn_rankeval import mean_reciprocal_rank_score
    >>> # query "a": first relevant item at rank 2 -> 1/2;
    >>> # query "b": the relevant item ties with one other at the top -> (1 + 1/2) / 2
    >>> y_true = [0, 1, 0, 1, 0]
    >>> y_score = [0.9, 0.5, 0.1, 0.7, 0.7]
    >>> groups = ["a", "a", "a", "b", "b"]
    >>> round(mean_reciprocal_rank_score(y_true, y_score, groups=groups), 4)
    0.625
    """
    k = check_k(k)
    average = check_average(average, _QUERY_AVERAGES)
    undefined = check_undefined(undefined)
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight,
                     labels=labels)
    return _mrr_from_ranked(rg, k=k, average=average, undefined=undefined)


@fill_doc
def mean_average_precision_score(
    y_true, y_score, *, groups=None, k=None, labels=None, sample_weight=None,
    average="macro", k_denominator="min", undefined="skip",
):
    """Mean average precision (MAP, or MAP@k) over queries.

    .. math::

        \\mathrm{AP}@k = \\frac{1}{\\min(R, k)} \\sum_{i=1}^{k} P(i)\\,\\mathrm{rel}_i,
        \\qquad \\mathrm{MAP} = \\frac{1}{|Q|} \\sum_{q} \\mathrm{AP}_q

    where :math:`P(i)` is the precision of the top :math:`i` items and
    :math:`R` the number of relevant items of the query (retrieved or not).
    With ``k=None`` the normaliser is :math:`R`.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    %(k_none)s
    %(labels)s
    sample_weight : array-like, default=None
        Item weights (one per row of the long layout; one per query in the
        2-D and multiclass layouts), with the same effect as in
        :func:`sklearn.metrics.average_precision_score` within each query.
    %(average_query)s
    k_denominator : {'min', 'relevant'}, default='min'
        Normaliser of AP@k: ``'min'`` divides by ``min(R, k)`` (the textbook
        AP@k); ``'relevant'`` divides by ``R``, as trec_eval's ``map_cut_k``.
        Ignored when ``k`` is None.
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    sklearn.metrics.average_precision_score : AP of one ranking.
    interpolated_average_precision_score : 11-point and all-points AP.

    Notes
    -----
    **Ties**: precision is taken at the end of each tie block (the thresholds
    of :func:`sklearn.metrics.precision_recall_curve`), so with ``k=None`` each
    query's AP equals :func:`sklearn.metrics.average_precision_score` and, on
    2-D binary input, the mean equals
    :func:`sklearn.metrics.label_ranking_average_precision_score` over rows
    with a relevant item.  With ``k``, a tie block cut by the cutoff counts for
    the share of it ranked within the top k, so ``k`` at least the group size
    gives MAP.  **Weights with k**: the cutoff counts items, not weight; the
    weighted sum of precisions above the cutoff is scaled by ``R / W`` (``W``
    the relevant weight) before dividing by ``min(R, k)``, so unit weights give
    the unweighted value, but integer weights are not the same as repeated
    rows (repeating rows moves items across the cutoff).  **Undefined
    groups**: a query with no relevant item is skipped by default.  Without
    ties, the value equals trec_eval's ``map`` (and ``map_cut_k`` with
    ``k_denominator='relevant'``).

    References
    ----------
    .. [1] C. D. Manning, P. Raghavan and H. Schütze, "Introduction to
       Information Retrieval", Cambridge University Press, 2008, section 8.4
       (mean average precision).
    .. [2] trec_eval, the evaluation program of TREC,
       https://github.com/usnistgov/trec_eval (measures ``map`` and
       ``map_cut``).

    Examples
    --------
    >>> from sklearn_rankeval import mean_average_precision_score
    >>> # query 1: relevant at ranks 1 and 3 -> (1 + 2/3) / 2
    >>> # query 2: its relevant item ties with another at the top -> 1/2
    >>> y_true = [1, 0, 1, 1, 0]
    >>> y_score = [3, 2, 1, 5, 5]
    >>> groups = [1, 1, 1, 2, 2]
    >>> round(mean_average_precision_score(y_true, y_score, groups=groups), 4)
    0.6667
    >>> # AP@1: query 1 scores 1; in query 2 half of the tied block is in the
    >>> # top 1, and the block's precision is 1/2 -> 1/4
    >>> round(mean_average_precision_score(y_true, y_score, groups=groups, k=1), 4)
    0.625
    """
    k = check_k(k)
    average = check_average(average, _QUERY_AVERAGES)
    check_option(k_denominator, "k_denominator", ("min", "relevant"))
    undefined = check_undefined(undefined)
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight,
                     labels=labels)
    return _map_from_ranked(rg, k=k, average=average, undefined=undefined,
                            k_denominator=k_denominator)


@fill_doc
def interpolated_average_precision_score(
    y_true, y_score, *, groups=None, n_points=11, sample_weight=None,
    average="macro", recall_levels="exact", undefined="skip",
):
    """Interpolated average precision (11-point, 101-point or all-points).

    The interpolated precision at recall :math:`r` is the highest precision at
    any recall :math:`\\geq r`.  With ``n_points=N`` the score is its mean over
    the recall levels :math:`0, \\frac{1}{N-1}, \\dots, 1`; ``N=11`` is the
    TREC / PASCAL VOC 2007 11-point average, ``N=101`` COCO's.  With
    ``n_points=None`` it is the all-points interpolation of VOC 2010+: the area
    under the interpolated precision-recall curve.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    n_points : int >= 2 or None, default=11
        Number of equally spaced recall levels from 0 to 1 (11: TREC / VOC
        2007; 101: COCO).  None: all-points interpolation (VOC 2010+).
    sample_weight : array-like, default=None
        Item weights, as for :func:`mean_average_precision_score`.
    %(average_query)s
    %(recall_levels)s
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    interpolated_precision_recall_curve : The interpolated precisions themselves.
    mean_average_precision_score : Non-interpolated AP.

    Notes
    -----
    **Ties**: precision-recall points are taken at the end of each tie block.
    Recall levels are compared exactly in integers (``n_rel_so_far * (N - 1)
    >= j * R``), so recall 3/10 reaches level 0.3.  Levels that no retrieved
    item reaches (relevant items with score ``-inf``) have precision 0.
    **Undefined groups**: a query with no relevant item is skipped by default.

    References
    ----------
    .. [1] M. Everingham et al., "The PASCAL Visual Object Classes (VOC)
       Challenge", IJCV 2010 (11-point AP of VOC 2007).

    Examples
    --------
    >>> from sklearn_rankeval import interpolated_average_precision_score
    >>> # relevant items at ranks 1 and 3: precision 1 up to recall 1/2, then 2/3
    >>> y_true = [1, 0, 1, 0]
    >>> y_score = [0.9, 0.8, 0.7, 0.1]
    >>> round(interpolated_average_precision_score(y_true, y_score), 4)
    0.8485
    >>> round(interpolated_average_precision_score(y_true, y_score, n_points=None), 4)
    0.8333
    """
    n_points = check_n_points(n_points)
    average = check_average(average, _QUERY_AVERAGES)
    check_option(recall_levels, "recall_levels", _RECALL_LEVELS)
    undefined = check_undefined(undefined)
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight)
    return _iap_from_ranked(rg, n_points=n_points, average=average,
                            undefined=undefined, recall_levels=recall_levels)


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
        that have a relevant item (each query counts once).
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
    check_option(recall_levels, "recall_levels", _RECALL_LEVELS)
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight)
    if n_points is None:
        if rg.n_groups != 1:
            raise ValueError(
                "n_points=None (the whole curve) needs a single ranking; with "
                f"{rg.n_groups} groups pass a number of recall levels, e.g. 101."
            )
        return _all_points_curve(rg)
    iprec, defined = _iprec_per_group(rg, n_points, recall_levels)
    recall = np.arange(n_points) / (n_points - 1)
    if not defined.any():
        warnings.warn(
            "No group has a relevant item: the interpolated precision is "
            "undefined; returning NaN.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return np.full(n_points, np.nan), recall
    return iprec[defined].mean(axis=0), recall


def _all_points_curve(rg):
    wp, cum_wp, precision = _retrieved_cumulative(rg)
    smax = rg.group_suffix_max(precision)
    if rg.group_n_rel[0] == 0 or rg.group_w_pos[0] == 0:
        warnings.warn(
            "y_true has no relevant item: the interpolated precision is "
            "undefined; returning NaN.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
        return np.array([np.nan]), np.array([0.0])
    steps = wp > 0
    reach, total = rg.group_cumsum_with_total(rg.block_w_pos)
    recall = np.concatenate([[0.0], reach[steps] / total[steps]])
    return np.concatenate([[smax[0]], smax[steps]]), recall


_HITS_FUNCTIONS = {"hit_rate": "hit_rate_score", "precision": "precision_at_k_score",
                   "recall": "recall_at_k_score"}


def _hits_metric(rg, k, average, undefined, kind):
    """Shared tail of P@k, R@k and HR@k: expected hits over k or over R."""
    rg.check_query_weights(_HITS_FUNCTIONS[kind])
    hits = _cached(rg, "hits", _hits_per_group, k)
    n_rel = rg.group_n_rel
    defined = n_rel > 0
    if kind == "precision":
        den = np.full(rg.n_groups, float(k))
        name = "P@k"
    else:
        den = n_rel.astype(np.float64)
        name = "R@k" if kind == "recall" else "HR@k"
    return _aggregate(_divide(hits, den), defined, rg, average=average,
                      undefined=undefined, query_weighted=True, name=name,
                      micro=(hits, den))


@fill_doc
def hit_rate_score(
    y_true, y_score, *, groups=None, k=10, labels=None, sample_weight=None,
    average="micro", undefined="skip",
):
    """Hit rate at k: relevant items found in the top k over all relevant items.

    .. math::

        \\mathrm{HR}@k = \\frac{\\sum_q \\mathrm{Hits}_q@k}{\\sum_q |\\mathrm{Rel}_q|}

    pooled over queries (``average='micro'``).  With one relevant item per
    query (a leave-one-out split, or multiclass input) it is the share of
    queries whose item is in the top k -- the top-k accuracy.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    %(k_10)s
    %(labels)s
    %(sample_weight_query)s
    %(average_pooled)s
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    recall_at_k_score : Per-query recall at k (the same counts, averaged per query).
    sklearn.metrics.top_k_accuracy_score : Equal on multiclass input without ties.

    Notes
    -----
    HR@k and R@k share their counts: ``hit_rate_score(average=a)`` equals
    ``recall_at_k_score(average=a)``; they differ only in the default
    ``average`` (pooled for HR@k, per query for R@k).  **Ties**: the expected
    number of hits over all orderings of the tied items (a block of ``m`` tied
    items of which ``k - s`` fit in the top k contributes ``(k - s)/m`` of its
    relevant items).  **Undefined groups**: a query without relevant items
    adds nothing to the pooled counts and is skipped by the other averages.

    References
    ----------
    .. [1] M. Deshpande and G. Karypis, "Item-based top-N recommendation
       algorithms", ACM TOIS 22(1), 2004 (hit rate).
    .. [2] X. He et al., "Neural Collaborative Filtering", WWW 2017
       (leave-one-out hit ratio).
    .. [3] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008 (the expected value under ties).

    Examples
    --------
    >>> from sklearn_rankeval import hit_rate_score
    >>> # three users with 10, 12 and 8 relevant items and 6, 5 and 4 of them
    >>> # in their top 10 would score (6 + 5 + 4) / (10 + 12 + 8) = 0.5.
    >>> # Multiclass: the true class must be among the two highest scores
    >>> y_true = [0, 1, 2]
    >>> y_score = [[0.5, 0.3, 0.2], [0.5, 0.2, 0.3], [0.2, 0.5, 0.3]]
    >>> round(hit_rate_score(y_true, y_score, k=2), 4)
    0.6667
    """
    k = check_k(k, allow_none=False)
    average = check_average(average, _POOLED_AVERAGES)
    undefined = check_undefined(undefined)
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight,
                     labels=labels)
    return _hit_rate_from_ranked(rg, k=k, average=average, undefined=undefined)


@fill_doc
def precision_at_k_score(
    y_true, y_score, *, groups=None, k=10, labels=None, sample_weight=None,
    average="macro", undefined="skip",
):
    """Precision at k: relevant items among the top k, divided by k.

    .. math::

        P@k = \\frac{|\\{\\text{relevant items in the top } k\\}|}{k}

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    %(k_10)s
    %(labels)s
    %(sample_weight_query)s
    %(average_pooled)s
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    recall_at_k_score : Relevant items in the top k over all relevant items.

    Notes
    -----
    The denominator is ``k`` even when a query has fewer than ``k`` items (the
    missing ranks count as non-relevant), as trec_eval's ``P_k``.  **Ties**:
    the expected value over all orderings of the tied items.  **Undefined
    groups**: a query with no relevant item is skipped by default.

    References
    ----------
    .. [1] C. D. Manning, P. Raghavan and H. Schütze, "Introduction to
       Information Retrieval", Cambridge University Press, 2008, section 8.4
       (precision at k).
    .. [2] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008 (the expected value under ties).

    Examples
    --------
    >>> from sklearn_rankeval import precision_at_k_score
    >>> # top 2 of query 1 holds one relevant item; in query 2 the relevant
    >>> # item ties with two others for ranks 1-3, so on average 2/3 of it is in
    >>> # the top 2
    >>> y_true = [1, 0, 1, 0, 1, 0]
    >>> y_score = [0.9, 0.8, 0.2, 0.5, 0.5, 0.5]
    >>> groups = [1, 1, 1, 2, 2, 2]
    >>> precision_at_k_score(y_true, y_score, groups=groups, k=2, average=None).round(4)
    array([0.5   , 0.3333])
    """
    k = check_k(k, allow_none=False)
    average = check_average(average, _POOLED_AVERAGES)
    undefined = check_undefined(undefined)
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight,
                     labels=labels)
    return _precision_from_ranked(rg, k=k, average=average, undefined=undefined)


@fill_doc
def recall_at_k_score(
    y_true, y_score, *, groups=None, k=10, labels=None, sample_weight=None,
    average="macro", undefined="skip",
):
    """Recall at k: relevant items in the top k over the query's relevant items.

    .. math::

        R@k = \\frac{|\\{\\text{relevant items in the top } k\\}|}{R}

    where :math:`R` counts every relevant item of the query, retrieved or not.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    %(k_10)s
    %(labels)s
    %(sample_weight_query)s
    %(average_pooled)s
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    hit_rate_score : The same counts pooled over queries.
    precision_at_k_score : Relevant items in the top k over k.

    Notes
    -----
    **Ties**: the expected value over all orderings of the tied items.
    **Undefined groups**: a query with no relevant item is skipped by default.
    Without ties the value equals trec_eval's ``recall_k``.

    References
    ----------
    .. [1] C. D. Manning, P. Raghavan and H. Schütze, "Introduction to
       Information Retrieval", Cambridge University Press, 2008, section 8.4
       (precision and recall of ranked results).
    .. [2] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008 (the expected value under ties).

    Examples
    --------
    >>> from sklearn_rankeval import recall_at_k_score
    >>> # two of the three relevant items are in the top 2; the third was not
    >>> # retrieved at all (score -inf)
    >>> y_true = [1, 1, 0, 1]
    >>> y_score = [0.9, 0.8, 0.1, float("-inf")]
    >>> round(recall_at_k_score(y_true, y_score, k=2), 4)
    0.6667
    """
    k = check_k(k, allow_none=False)
    average = check_average(average, _POOLED_AVERAGES)
    undefined = check_undefined(undefined)
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight,
                     labels=labels)
    return _recall_from_ranked(rg, k=k, average=average, undefined=undefined)


@fill_doc
def ndcg_score(
    y_true, y_score, *, groups=None, k=None, sample_weight=None, average="macro",
    undefined="skip",
):
    """Normalized discounted cumulative gain, per query, averaged.

    .. math::

        \\mathrm{DCG}@k = \\sum_{i=1}^{k} \\frac{\\mathrm{rel}_i}{\\log_2(i + 1)},
        \\qquad \\mathrm{NDCG}@k = \\frac{\\mathrm{DCG}@k}{\\mathrm{IDCG}@k}

    with the graded relevance ``y_true`` as gain and IDCG the DCG of the ideal
    ordering of all the query's items.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_queries, n_items)
        Graded relevance (``>= 0``), used as the gain.  1-D class labels when
        ``y_score`` is 2-D multiclass scores.
    %(y_score)s
    %(groups)s
    %(k_none)s
    %(sample_weight_query)s
    %(average_query)s
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    sklearn.metrics.ndcg_score : The same value on 2-D input.

    Notes
    -----
    **Ties**: the gains of tied items are averaged over the ranks they share
    (McSherry & Najork), so on 2-D input the value equals
    :func:`sklearn.metrics.ndcg_score` for rows with a nonzero gain.
    **Undefined groups**: a query without any positive gain is skipped by
    default (scikit-learn scores it 0 and counts it: pass ``undefined=0`` for
    that).  Items with score ``-inf`` are not retrieved: they add no DCG but
    count in the ideal DCG, as in trec_eval's ``ndcg_cut_k``.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of
       IR techniques", ACM TOIS 20(4), 2002.
    .. [2] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008.

    Examples
    --------
    >>> from sklearn_rankeval import ndcg_score
    >>> # gains 3, 2, 3, 0, 1, 2 in ranked order; the ideal order is 3, 3, 2, 2, 1, 0
    >>> y_true = [3, 2, 3, 0, 1, 2]
    >>> y_score = [6, 5, 4, 3, 2, 1]
    >>> round(ndcg_score(y_true, y_score), 4)
    0.9608
    >>> # 2-D layout, one query per row, as sklearn.metrics.ndcg_score
    >>> # the tie at rank 2-3 shares the gains 1 and 0 over both ranks
    >>> round(ndcg_score([[1, 0, 2]], [[0.3, 0.3, 0.9]], k=2), 4)
    0.8801
    """
    k = check_k(k)
    average = check_average(average, _QUERY_AVERAGES)
    undefined = check_undefined(undefined)
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight)
    return _ndcg_from_ranked(rg, k=k, average=average, undefined=undefined)
