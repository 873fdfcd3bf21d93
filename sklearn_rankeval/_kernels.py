"""Per-group kernels and the one generic aggregation.

A kernel takes the engine's :class:`~sklearn_rankeval._engine.RankedGroups`
and returns the metric's :class:`Partials` for every group at once: the
group's value, whether it is defined, and for pooled (``"micro"``) averages
the group's numerator and denominator.  Kernels are block-level segment
arithmetic, with no loop over groups, and every number a kernel returns for a
group is computed from that group's own blocks only (see
``RankedGroups.group_cumsum``): the partials of disjoint groups can be
computed separately and concatenated, which is what per-group frames,
segments, the accumulator and the distributed engines rely on.

:func:`aggregate` turns partials (of one call, or concatenated from many)
into any ``average``: it only sums per-group arrays (NumPy's pairwise
summation), so its error does not grow with the number of rows.
"""

import warnings
from typing import NamedTuple

import numpy as np
from scipy.special import gammaln
from sklearn.exceptions import UndefinedMetricWarning

from ._engine import discount_cumsum

__all__ = [
    "GroupInfo",
    "Partials",
    "aggregate",
    "average_sums",
    "all_points_curve",
    "average_precision",
    "bpref",
    "dcg",
    "expected_reciprocal_rank",
    "gauc",
    "hit_rate",
    "interpolated_ap",
    "interpolated_precision",
    "ndcg",
    "precision_at_k",
    "r_precision",
    "rank_biased_precision",
    "rbp_residual",
    "recall_at_k",
    "reciprocal_rank",
    "retrieved_cumulative",
    "success_at_k",
]

#: Relative tolerance of a recall-level decision made on float weight sums.
RECALL_LEVEL_RTOL = 1e-12
#: Floor of the values in ``average="gmean"`` (trec_eval's MIN_GEO_MEAN).
MIN_GEO_MEAN = 1e-5


class Partials(NamedTuple):
    """One metric's per-group result, in the order of the groups.

    ``value`` is meaningful where ``defined``; ``num`` and ``den`` (pooled
    averages only, else None) are the group's numerator and denominator,
    before the query weight.
    """

    value: np.ndarray
    defined: np.ndarray
    num: object = None
    den: object = None

    def take(self, index):
        """The partials of a subset (or reordering) of the groups."""
        return Partials(*(None if a is None else a[index] for a in self))

    @staticmethod
    def concatenate(parts):
        parts = list(parts)
        pooled = parts[0].num is not None
        return Partials(
            np.concatenate([p.value for p in parts]),
            np.concatenate([p.defined for p in parts]),
            np.concatenate([p.num for p in parts]) if pooled else None,
            np.concatenate([p.den for p in parts]) if pooled else None,
        )


class GroupInfo(NamedTuple):
    """What the aggregation needs to know of each group besides a metric.

    ``weight`` is the group's total sample weight (its size if unweighted),
    ``query_weight`` its query weight (the weight of its first row; ones if
    unweighted) and ``item_macro_weight`` the weight of the group in the
    ``"macro"`` average of an item-weighted metric (ones in the long layout,
    where item weights act inside the group; the query weight in the 2-D and
    multiclass layouts, where a weight is one query's).
    """

    labels: np.ndarray
    n_items: np.ndarray
    n_relevant: np.ndarray
    weight: np.ndarray
    query_weight: np.ndarray
    item_macro_weight: np.ndarray

    @classmethod
    def from_ranked(cls, rg):
        ones = np.ones(rg.n_groups)
        qw = ones if rg.query_weight is None else np.asarray(rg.query_weight, float)
        return cls(
            labels=rg.labels,
            n_items=np.asarray(rg.group_size, dtype=np.int64),
            n_relevant=np.asarray(rg.group_n_rel, dtype=np.int64),
            weight=np.asarray(rg.group_weight, dtype=np.float64),
            query_weight=qw,
            item_macro_weight=qw if rg.per_query_weights else ones,
        )

    def take(self, index):
        return GroupInfo(*(a[index] for a in self))

    @staticmethod
    def concatenate(parts):
        parts = list(parts)
        return GroupInfo(*(np.concatenate(cols) for cols in zip(*parts)))


# ---------------------------------------------------------------------------
# the aggregation
# ---------------------------------------------------------------------------
def _plain(label):
    """A group id as the user wrote it (no ``np.str_('a')`` in messages)."""
    return label.item() if isinstance(label, np.generic) else label


def apply_undefined(partials, labels, *, undefined, label, needs_negative=False):
    """The undefined-group policy: raise, skip (keep the mask), or a value."""
    values, defined = partials.value, partials.defined
    if isinstance(undefined, str):
        if undefined == "raise" and not defined.all():
            bad = labels[~defined]
            raise ValueError(
                f"{label} is undefined for {len(bad)} group(s), e.g. group "
                f"{_plain(bad[0])!r} (no relevant item"
                f"{', or a single class' if needs_negative else ''}). Pass "
                f"undefined='skip' to leave them out or a number to count them "
                f"with that value."
            )
        return partials
    values = np.where(defined, values, float(undefined))
    return partials._replace(value=values, defined=np.ones_like(defined))


def average_sums(partials, info, *, average, query_weighted):
    """``(numerator, denominator, n_defined)`` of an average over groups.

    The average is ``numerator / denominator`` (``"gmean"``: its ``exp``, the
    sums being of weighted logs); sums of disjoint sets of groups add up (the
    accumulator keeps these instead of the groups).
    """
    defined = partials.defined
    qw = info.query_weight if query_weighted else info.item_macro_weight
    if average == "gmean":  # trec_eval's gm_map: log(max(value, 1e-5))
        w = qw[defined]
        num = np.sum(w * np.log(np.maximum(partials.value[defined], MIN_GEO_MEAN)))
        den = np.sum(w)
    elif average == "micro":
        w = qw[defined]
        num = np.sum(partials.num[defined] * w)
        den = np.sum(partials.den[defined] * w)
    else:
        w = (info.weight if average == "weighted" else qw)[defined]
        num = np.sum(w * partials.value[defined])
        den = np.sum(w)
    return float(num), float(den), int(np.count_nonzero(defined))


def ratio(num, den, n_defined, *, label, needs_negative=False, stacklevel=4,
          average=None):
    """``num / den`` (``exp`` of it for ``"gmean"``), or NaN with a warning
    when no group defines it."""
    if n_defined == 0:
        warnings.warn(
            f"{label} is undefined for every group (no group has a relevant item"
            f"{' and an irrelevant one' if needs_negative else ''}); returning NaN.",
            UndefinedMetricWarning,
            stacklevel=stacklevel + 1,
        )
        return float("nan")
    if den == 0:
        warnings.warn(
            f"{label}: the groups that define it have zero total weight; "
            f"returning NaN.",
            UndefinedMetricWarning,
            stacklevel=stacklevel + 1,
        )
        return float("nan")
    return float(np.exp(num / den) if average == "gmean" else num / den)


def aggregate(partials, info, *, average, undefined="skip", query_weighted,
              label, needs_negative=False, stacklevel=4):
    """Partials of any set of groups -> the metric under ``average``.

    ``"macro"`` weights each defined group by its query weight (query-weighted
    metrics, and every metric in the 2-D and multiclass layouts) or counts it
    once; ``"weighted"`` by its total sample weight; ``"micro"`` pools the
    numerators and denominators (times the query weight); ``"gmean"`` is the
    geometric mean, with the weights of ``"macro"``, of the values floored at
    ``MIN_GEO_MEAN`` (trec_eval's ``gm_map``); None returns the per-group
    values with NaN where undefined.
    """
    p = apply_undefined(partials, info.labels, undefined=undefined, label=label,
                        needs_negative=needs_negative)
    if average is None:
        if not p.defined.any():
            ratio(0.0, 0.0, 0, label=label, needs_negative=needs_negative,
                  stacklevel=stacklevel)
        return np.where(p.defined, p.value, np.nan)
    num, den, n_defined = average_sums(p, info, average=average,
                                       query_weighted=query_weighted)
    return ratio(num, den, n_defined, label=label, needs_negative=needs_negative,
                 stacklevel=stacklevel, average=average)


def _divide(num, den):
    """num / den where den > 0, else 0 (the caller masks those groups)."""
    num = np.asarray(num, dtype=np.float64)
    return np.divide(num, den, out=np.zeros_like(num), where=den > 0)


# ---------------------------------------------------------------------------
# shared block-level pieces
# ---------------------------------------------------------------------------
def retrieved_cumulative(rg):
    """Relevant weight, cumulative relevant weight and precision per block.

    Precision is taken at the end of each block (the threshold precision of
    :func:`sklearn.metrics.precision_recall_curve`).  Unretrieved blocks
    (always their group's last) add no relevant weight.
    """
    ret = rg.block_retrieved
    every = bool(ret.all())
    wp = rg.block_w_pos if every else np.where(ret, rg.block_w_pos, 0)
    cum_wp = rg.group_cumsum(wp)
    if rg.item_weighted:
        wn = rg.block_w_neg if every else np.where(ret, rg.block_w_neg, 0)
        cum_w = rg.group_cumsum(wp + wn)
    else:
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


def _has_relevant(rg):
    return (rg.group_n_rel > 0) & (rg.group_w_pos > 0)


# ---------------------------------------------------------------------------
# kernels: RankedGroups -> Partials
# ---------------------------------------------------------------------------
def gauc(rg):
    """ROC AUC of each group: tied (positive, negative) pairs count 1/2.

    Unweighted, it is the Mann-Whitney statistic from mid-ranks: a block of
    ``m`` items below ``s`` others in a group of ``S`` has ascending mid-rank
    ``S - s - (m - 1)/2``, so twice the number of correctly ordered pairs
    (ties counting 1/2) is ``2 P S - sum_b p_b (2 s_b + m_b - 1) - P (P + 1)``,
    exact in integers.  Weighted, the negative weight below each block is
    accumulated within the group instead.
    """
    wp, wn = rg.block_w_pos, rg.block_w_neg
    pos_total, neg_total = rg.group_w_pos, rg.group_w_neg
    if rg.item_weighted:
        below = neg_total[rg.block_group] - rg.group_cumsum(wn)
        twice = rg.group_sum(wp * (2 * below + wn))
    else:
        tied_offset = rg.group_sum(wp * (2 * rg.block_start + rg.block_size - 1))
        twice = (2 * pos_total * rg.group_size - tied_offset
                 - pos_total * (pos_total + 1))
    den = 2 * pos_total * neg_total
    return Partials(_divide(twice, den), den > 0)


def average_precision(rg, k=None, k_denominator="min"):
    """Average precision with threshold (tie-block) precision, optionally @k.

    ``k_denominator``: AP@k divided by ``min(R, k)`` (``"min"``), by ``R``
    (``"relevant"``) or by the relevant items ranked in the top k
    (``"hits"``, torchmetrics; 0 when there is none).
    """
    wp, _, precision = retrieved_cumulative(rg)
    contrib = wp * precision
    if k is not None:
        contrib = contrib * _cutoff_fraction(rg, k)
    total = rg.group_sum(contrib)
    n_rel, w_rel = rg.group_n_rel, rg.group_w_pos
    defined = (n_rel > 0) & (w_rel > 0)
    if k_denominator == "hits":
        hits = rg.group_sum(np.where(rg.block_retrieved, wp, 0)
                            * (1.0 if k is None else _cutoff_fraction(rg, k)))
        return Partials(_divide(total, hits), defined)
    if k is None:
        return Partials(_divide(total, w_rel), defined)
    denom = np.minimum(n_rel, k) if k_denominator == "min" else n_rel
    if rg.item_weighted:
        total = total * _divide(n_rel, w_rel)
    return Partials(_divide(total, denom), defined)


def reciprocal_rank(rg, k=None):
    """Expected reciprocal rank of the first relevant item (ties in random order).

    The first relevant item lies in the group's first retrieved block with a
    relevant item: ``s`` items above it, ``m`` items in it, ``r`` relevant.
    Its position ``J`` within the block is the minimum of ``r`` positions drawn
    without replacement from ``1..m``: ``P(J = j) = C(m-j, r-1) / C(m, r)``.
    The expectation of ``1/(s + J)`` (counting only ``s + J <= k``) is summed
    over one expanded row per (block, j): at most one row per item in total.
    """
    first, first_group = _first_relevant_block(rg)
    s = rg.block_start[first]
    m = rg.block_size[first]
    r = rg.block_n_rel[first]
    n_terms = m - r + 1
    if k is not None:
        n_terms = np.clip(np.minimum(n_terms, k - s), 0, None)
    owner, j = _expand_positions(rg, n_terms)
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
    values[first_group] = rr_first
    return Partials(values, rg.group_n_rel > 0)


def ndcg(rg, k=None, gain="linear"):
    """sklearn's tie-averaged DCG over the ideal DCG of all the group's items.

    ``gain`` maps a grade to its gain (``RankedGroups.block_gain_of``).
    """
    disc = discount_cumsum(rg.max_group_size, k)
    block_disc = disc[rg.block_start + rg.block_size] - disc[rg.block_start]
    gain_sum = rg.block_gain_of(gain)
    gain_avg = np.where(rg.block_retrieved, gain_sum / rg.block_size, 0.0)
    dcg = rg.group_sum(gain_avg * block_disc)
    idcg = rg.ideal_dcg(k, gain)
    return Partials(_divide(dcg, idcg), (rg.group_n_rel > 0) & (idcg > 0))


def _expected_hits(rg, k):
    """Expected number of relevant items in the top k (ties in random order)."""
    return rg.group_sum(rg.block_n_rel * _cutoff_fraction(rg, k))


def _hits_partials(hits, den, defined):
    return Partials(_divide(hits, den), defined, hits, den)


def hit_rate(rg, k=10):
    """Hits in the top k over the relevant items (pooled by ``"micro"``)."""
    den = rg.group_n_rel.astype(np.float64)
    return _hits_partials(_expected_hits(rg, k), den, rg.group_n_rel > 0)


recall_at_k = hit_rate


def precision_at_k(rg, k=10, k_denominator="k"):
    """Hits in the top k over k (or over ``min(k, n)``, n the retrieved items)."""
    if k_denominator == "retrieved":
        unretrieved = rg.group_sum(np.where(rg.block_retrieved, 0, rg.block_size))
        den = np.minimum(rg.group_size - unretrieved, k).astype(np.float64)
    else:
        den = np.full(rg.n_groups, float(k))
    return _hits_partials(_expected_hits(rg, k), den, rg.group_n_rel > 0)


# -- interpolated precision --------------------------------------------------
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


def _weighted_levels(rg, n_points):
    """Highest recall level index reached by each block, from float weights.

    Level ``j`` is reached when ``reach * (N - 1) >= j * W * (1 - rtol)``,
    with ``reach`` the relevant weight ranked down to the end of the block
    and ``W`` the group's relevant weight, both summed within the group (so
    that no other group changes the decision); ``rtol``
    (:data:`RECALL_LEVEL_RTOL`) absorbs the rounding of those float sums.
    Weights constant within a group are exactly 1 here (the engine divides
    item weights by the group's largest), so the levels are then those of
    the unweighted counts.
    """
    reach, w_rel = rg.group_cumsum_with_total(rg.block_w_pos)
    t = reach * (n_points - 1)
    bound = w_rel * (1.0 - RECALL_LEVEL_RTOL)
    level = np.floor(_divide(t, bound))
    level = np.where((level + 1) * bound <= t, level + 1, level)
    level = np.where(level * bound > t, level - 1, level)
    return np.clip(level, 0, n_points - 1).astype(np.int64)


def interpolated_precision(rg, n_points, recall_levels="exact"):
    """Interpolated precision at recall levels j/(n_points-1), (n_groups, n_points).

    The precision-recall points are the ends of the retrieved tie blocks; the
    interpolated precision at level l is the maximum precision over the points
    whose recall is >= l, and 0 where no point reaches l.  For each (group,
    level) the first block reaching the level is found by one ``searchsorted``
    on a key that increases along the blocks; the answer is that block's
    suffix maximum of precision.  Returns the matrix and the defined mask.
    """
    _, cum_wp, precision = retrieved_cumulative(rg)
    smax = rg.group_suffix_max(precision)
    groups = np.arange(rg.n_groups)
    bg = rg.block_group.astype(np.int64)
    if rg.item_weighted:
        if recall_levels != "exact":
            raise ValueError(
                f"recall_levels={recall_levels!r} counts relevant items and does "
                f"not support sample_weight; use recall_levels='exact'."
            )
        level = _weighted_levels(rg, n_points)
        # an unretrieved block (always its group's last) is no point: give it
        # the level of the block before it so that it is never the first to
        # reach a level that a retrieved block reaches
        unretrieved = np.flatnonzero(~rg.block_retrieved)
        is_first = np.zeros(len(bg), dtype=bool)
        is_first[rg.group_first_block] = True
        level[unretrieved] = np.where(
            is_first[unretrieved], 0, level[np.maximum(unretrieved - 1, 0)]
        )
        span = n_points
        key = bg * span + level
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
    return iprec, _has_relevant(rg)


def _all_points_ap(rg):
    """VOC 2010+ all-points interpolated AP: recall steps times suffix-max precision."""
    wp, _, precision = retrieved_cumulative(rg)
    smax = rg.group_suffix_max(precision)
    return Partials(_divide(rg.group_sum(wp * smax), rg.group_w_pos),
                    _has_relevant(rg))


def interpolated_ap(rg, n_points=11, recall_levels="exact"):
    """Mean interpolated precision over the recall levels (all-points if None)."""
    if n_points is None:
        return _all_points_ap(rg)
    iprec, defined = rg.cached(("iprec", n_points, recall_levels),
                               lambda: interpolated_precision(rg, n_points,
                                                              recall_levels))
    return Partials(iprec.mean(axis=1), defined)


def all_points_curve(rg):
    """The interpolated precision-recall envelope of a single ranking.

    Returns ``(precision, recall)``: one point per recall reached, after
    recall 0; None when the ranking has no relevant item.
    """
    wp, _, precision = retrieved_cumulative(rg)
    smax = rg.group_suffix_max(precision)
    if not _has_relevant(rg)[0]:
        return None
    steps = wp > 0
    reach, total = rg.group_cumsum_with_total(rg.block_w_pos)
    recall = np.concatenate([[0.0], reach[steps] / total[steps]])
    return np.concatenate([[smax[0]], smax[steps]]), recall


# -- issue 13: success@k, R-precision, DCG, ERR, RBP, bpref --------------------
def _first_relevant_block(rg):
    """Index of each group's first retrieved block holding a relevant item.

    Returns ``(blocks, groups)``: one block per group that has one.
    """
    candidate = np.flatnonzero(rg.block_retrieved & (rg.block_n_rel > 0))
    grp = rg.block_group[candidate]
    is_first = np.empty(len(candidate), dtype=bool)
    is_first[:1] = True
    np.not_equal(grp[1:], grp[:-1], out=is_first[1:])
    return candidate[is_first], grp[is_first]


def success_at_k(rg, k=10):
    """Probability that the top k holds a relevant item (ties in random order).

    Only the group's first block with a relevant item matters: ``s`` items
    above it, ``m`` in it, ``r`` relevant.  If ``t = k - s`` of its items fit
    in the top k, the top k misses every relevant item with the hypergeometric
    probability ``C(m - r, t) / C(m, t)``.
    """
    first, grp = _first_relevant_block(rg)
    s, m = rg.block_start[first], rg.block_size[first]
    r = rg.block_n_rel[first]
    t = np.clip(k - s, 0, m)
    miss = np.zeros(len(first))
    partial = np.flatnonzero((t > 0) & (t < m) & (t <= m - r))
    if partial.size:
        mp, rp, tp = m[partial], r[partial], t[partial]
        miss[partial] = np.exp(gammaln(mp - rp + 1) - gammaln(mp - rp - tp + 1)
                               - gammaln(mp + 1) + gammaln(mp - tp + 1))
    miss[t == 0] = 1.0
    values = np.zeros(rg.n_groups)
    values[grp] = 1.0 - miss
    return Partials(values, rg.group_n_rel > 0)


def r_precision(rg):
    """Expected precision at rank R, R the group's number of relevant items."""
    n_rel = rg.group_n_rel
    hits = _expected_hits(rg, n_rel[rg.block_group])
    return Partials(_divide(hits, n_rel), n_rel > 0)


def _log_discounts(n_items, k, log_base):
    """Cumulative DCG discounts ``1/log_b(rank + 1)``, as sklearn writes them."""
    if log_base == 2:
        return discount_cumsum(n_items, k)
    discount = 1 / (np.log(np.arange(n_items) + 2) / np.log(log_base))
    if k is not None:
        discount[k:] = 0.0
    out = np.zeros(n_items + 1)
    np.cumsum(discount, out=out[1:])
    return out


def dcg(rg, k=None, log_base=2, gain="linear"):
    """sklearn's tie-averaged DCG (defined for every group, 0 without gain)."""
    disc = _log_discounts(rg.max_group_size, k, log_base)
    block_disc = disc[rg.block_start + rg.block_size] - disc[rg.block_start]
    gain = np.where(rg.block_retrieved, rg.block_gain_of(gain) / rg.block_size, 0.0)
    return Partials(rg.group_sum(gain * block_disc), np.ones(rg.n_groups, bool))


def _expand_positions(rg, n_terms):
    """One row per (block, j), ``j = 1..n_terms[block]``: (block index, j)."""
    owner = np.repeat(np.arange(len(n_terms)), n_terms)
    j = (np.arange(owner.shape[0])
         - np.repeat(np.cumsum(n_terms) - n_terms, n_terms) + 1)
    return owner, j


def expected_reciprocal_rank(rg, k=None, max_grade=4):
    """ERR with tie-averaged stopping probabilities.

    An item of grade ``g`` stops the user with probability
    ``(2**g - 1) / 2**max_grade``.  The items of a tie block all get the
    block's mean stopping probability ``R_b``; then the block's ``j``-th rank
    contributes ``C_b (1 - R_b)**(j-1) R_b / (s_b + j)``, with ``C_b`` the
    probability of reaching the block (the product of ``(1 - R)`` over the
    ranks above it, summed in logs within the group).
    """
    too_high = rg.max_grade > max_grade
    if too_high.any():
        raise ValueError(
            f"y_true must be at most max_grade={max_grade} for ERR (stopping "
            f"probability (2**g - 1) / 2**max_grade); got "
            f"{rg.max_grade[too_high].max():g} in group "
            f"{_plain(rg.labels[np.flatnonzero(too_high)[0]])!r}."
        )
    stop = np.where(rg.block_retrieved,
                    rg.block_exp2_gain / (rg.block_size * 2.0 ** max_grade), 0.0)
    log_cont = np.log1p(-stop)
    block_log = rg.block_size * log_cont
    before = rg.group_cumsum(block_log) - block_log  # log C_b, group-local
    n_terms = rg.block_size * (stop > 0)
    if k is not None:
        n_terms = np.clip(np.minimum(n_terms, k - rg.block_start), 0, None)
    owner, j = _expand_positions(rg, n_terms)
    contrib = (np.exp(before[owner] + (j - 1) * log_cont[owner]) * stop[owner]
               / (rg.block_start[owner] + j))
    per_block = np.bincount(owner, weights=contrib, minlength=len(n_terms))
    return Partials(rg.group_sum(per_block), rg.group_n_rel > 0)


def rank_biased_precision(rg, p=0.8):
    """RBP: ``(1 - p) sum_i rel_i p**(i-1)``; tied items share their ranks' weights.

    A block of ``m`` items below ``s`` others holds ranks ``s+1..s+m``, whose
    weights ``(1 - p) p**(i-1)`` average to ``p**s (1 - p**m) / m``: each of
    its relevant items gets that (the expected value under a random order).
    """
    rel = np.where(rg.block_retrieved, rg.block_n_rel, 0)
    m = rg.block_size
    weight = np.power(p, rg.block_start) * (-np.expm1(m * np.log(p))) / m
    return Partials(rg.group_sum(rel * weight), rg.group_n_rel > 0)


def rbp_residual(rg, p=0.8):
    """RBP's residual when every row is judged: ``p**n``, ``n`` the retrieved items.

    The weight of the ranks beyond the ranked list, which no relevance
    judgment covers; defined where RBP is (the query has a relevant item).
    Unjudged rows (``judged=``) add their ranks' weights in ``compute``.
    """
    n_ret = rg.group_sum(np.where(rg.block_retrieved, rg.block_size, 0))
    return Partials(np.power(p, n_ret.astype(np.float64)), rg.group_n_rel > 0)


def _sum_min(x, cap):
    """``sum(min(n, cap) for n in range(x))``, elementwise, in integers."""
    x = np.asarray(x, dtype=np.int64)
    below = np.minimum(x, cap + 1)
    return below * (below - 1) // 2 + np.maximum(x - cap - 1, 0) * cap


def bpref(rg):
    """bpref (Buckley & Voorhees 2004), as trec_eval computes it.

    Each retrieved relevant item scores ``1 - min(n, R) / min(N, R)``, ``n``
    the non-relevant items ranked above it, ``N`` the group's non-relevant
    items (retrieved or not), ``R`` its relevant items; the sum is divided by
    ``R``.  Under a random order of a tie block with ``q`` non-relevant items
    below ``n0`` others, the number of them above a given relevant item is
    uniform on ``0..q``, so the block's expected term is exact in integers.
    """
    n_rel = rg.group_n_rel
    n_non = rg.group_size - n_rel
    cap = np.minimum(n_non, n_rel)  # min(N, R)
    ret = rg.block_retrieved
    q = np.where(ret, rg.block_size - rg.block_n_rel, 0)
    r = np.where(ret, rg.block_n_rel, 0)
    n0 = rg.group_cumsum(q) - q
    cap_b = cap[rg.block_group]
    ranked_above = _sum_min(n0 + q + 1, cap_b) - _sum_min(n0, cap_b)
    penalty = _divide(ranked_above, (q + 1) * cap_b)
    total = rg.group_sum(r * (1.0 - penalty))
    return Partials(_divide(total, n_rel), n_rel > 0)
