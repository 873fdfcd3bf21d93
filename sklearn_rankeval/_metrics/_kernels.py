"""Per-group kernels.

A kernel takes the engine's :class:`~sklearn_rankeval._engine.RankedGroups`
and returns the metric's :class:`~._averages.Partials` for every group at
once: the group's value, whether it is defined, and for pooled (``"micro"``)
averages the group's additive statistics (see :mod:`._averages`). Kernels are
block-level segment arithmetic, with no loop over groups, and every number a
kernel returns for a group is computed from that group's own blocks only (see
``RankedGroups.group_cumsum``): the partials of disjoint groups can be
computed separately and concatenated, which is what per-group frames,
segments, the accumulator and the distributed engines rely on.

:func:`._averages.aggregate` turns partials (of one call, or concatenated from
many) into any ``average``.

Kernels are written once against the namespace ``xp = rg.xp`` of the ranked
input (NumPy, or an Array API library such as torch or CuPy: see
:mod:`._array_api`), so they run on the input's device. Integer arrays are
cast to float64 before they meet floats (the standard defines no mixed
promotion).
"""

import math

import numpy as np

from .._core import (
    astype,
    concat,
    cumsum,
    full,
    lgamma,
    namespace_of,
    repeat_index,
    sum_by_owner,
    take,
    xpx,
)
from .._engine import discount_cumsum
from .._stats import Partials, first_label

__all__ = [
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
    "recall_level_cutoffs",
    "reciprocal_rank",
    "retrieved_cumulative",
    "success_at_k",
]

#: Relative tolerance of a recall-level decision made on float weight sums.
RECALL_LEVEL_RTOL = 1e-12


def _f(xp, x):
    """``x`` as float64 (a no-op on float64 arrays)."""
    return astype(xp, x, xp.float64)


def _i(xp, x):
    return astype(xp, x, xp.int64)


def safe_divide(num, den):
    """num / den where den > 0, else 0 (the caller masks those groups)."""
    xp = namespace_of(den)
    if xp is np:
        num = np.asarray(num, dtype=np.float64)
        return np.divide(num, den, out=np.zeros_like(num), where=den > 0)
    num, den = _f(xp, num), _f(xp, den)
    ok = den > 0
    return xp.where(ok, num / xp.where(ok, den, xp.ones_like(den)),
                    xp.zeros_like(num))


def _zero_unless(xp, mask, x):
    """``where(mask, x, 0)``."""
    return xp.where(mask, x, xp.zeros_like(x))


# ---------------------------------------------------------------------------
# shared block-level pieces
# ---------------------------------------------------------------------------
def retrieved_cumulative(rg):
    """Relevant weight, cumulative relevant weight and precision per block.

    Precision is taken at the end of each block (the threshold precision of
    :func:`sklearn.metrics.precision_recall_curve`).  Unretrieved blocks
    (always their group's last) add no relevant weight.
    """
    xp = rg.xp
    ret = rg.block_retrieved
    every = rg.all_retrieved
    wp = rg.block_w_pos if every else _zero_unless(xp, ret, rg.block_w_pos)
    cum_wp = rg.group_cumsum(wp)
    if rg.item_weighted:
        wn = rg.block_w_neg if every else _zero_unless(xp, ret, rg.block_w_neg)
        cum_w = rg.group_cumsum(wp + wn)
    else:
        cum_w = rg.block_start + rg.block_size
    return wp, cum_wp, safe_divide(cum_wp, cum_w)


def _cutoff_fraction(rg, k):
    """Share of each block ranked within the top k (0 for unretrieved blocks).

    Under a uniformly random order of the tied items, it is also the
    probability that any one item of the block lands in the top k.
    """
    xp = rg.xp
    frac = xp.clip(_f(xp, k - rg.block_start) / rg.block_size_f, 0.0, 1.0)
    return frac if rg.all_retrieved else _zero_unless(xp, rg.block_retrieved, frac)


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
    xp = rg.xp
    wp, wn = rg.block_w_pos, rg.block_w_neg
    pos_total, neg_total = rg.group_w_pos, rg.group_w_neg
    if rg.item_weighted:
        below = take(xp, neg_total, rg.block_group) - rg.group_cumsum(wn)
        twice = rg.group_sum(wp * (2 * below + wn))
    else:
        tied_offset = rg.group_sum(wp * (2 * rg.block_start + rg.block_size - 1))
        twice = (2 * pos_total * rg.group_size - tied_offset
                 - pos_total * (pos_total + 1))
    den = 2 * pos_total * neg_total
    return Partials(safe_divide(twice, den), den > 0)


def average_precision(rg, k=None, k_denominator="min"):
    """Average precision with threshold (tie-block) precision, optionally @k.

    ``k_denominator``: AP@k divided by ``min(R, k)`` (``"min"``), by ``R``
    (``"relevant"``) or by the relevant items ranked in the top k
    (``"hits"``, torchmetrics; 0 when there is none).
    """
    xp = rg.xp
    wp, _, precision = retrieved_cumulative(rg)
    contrib = _f(xp, wp) * precision
    if k is not None:
        contrib = contrib * _cutoff_fraction(rg, k)
    total = rg.group_sum(contrib)
    n_rel, w_rel = rg.group_n_rel, rg.group_w_pos
    defined = (n_rel > 0) & (w_rel > 0)
    if k_denominator == "hits":
        hits = _f(xp, _zero_unless(xp, rg.block_retrieved, wp))
        if k is not None:
            hits = hits * _cutoff_fraction(rg, k)
        return Partials(safe_divide(total, rg.group_sum(hits)), defined)
    if k is None:
        return Partials(safe_divide(total, w_rel), defined)
    denom = xp.clip(n_rel, None, k) if k_denominator == "min" else n_rel
    if rg.item_weighted:
        total = total * safe_divide(n_rel, w_rel)
    return Partials(safe_divide(total, denom), defined)


def _expand_positions(rg, n_terms):
    """One row per (block, j), ``j = 1..n_terms[block]``: (block index, j)."""
    xp = rg.xp
    owner = repeat_index(xp, n_terms)
    first = cumsum(xp, n_terms) - n_terms
    j = xp.arange(owner.shape[0], dtype=xp.int64, **rg.on_device) - take(
        xp, first, owner) + 1
    return owner, j


def _first_relevant(rg):
    """Mask of each group's first retrieved block holding a relevant item."""
    candidate = rg.block_retrieved & (rg.block_n_rel > 0)
    return candidate & (rg.group_cumsum(_i(rg.xp, candidate)) == 1)


def reciprocal_rank(rg, k=None):
    """Expected reciprocal rank of the first relevant item (ties in random order).

    The first relevant item lies in the group's first retrieved block with a
    relevant item: ``s`` items above it, ``m`` items in it, ``r`` relevant.
    Its position ``J`` within the block is the minimum of ``r`` positions drawn
    without replacement from ``1..m``: ``P(J = j) = C(m-j, r-1) / C(m, r)``.
    The expectation of ``1/(s + J)`` (counting only ``s + J <= k``) is summed
    over one expanded row per (block, j): at most one row per item in total.
    """
    xp = rg.xp
    first = _first_relevant(rg)
    blocks = xpx.flatnonzero(xp, first)  # one per group that has one, in order
    s, m, r = (take(xp, a, blocks) for a in (rg.block_start, rg.block_size,
                                             rg.block_n_rel))
    n_terms = m - r + 1
    if k is not None:
        n_terms = xp.clip(xp.minimum(n_terms, k - s), 0, None)
    owner, j = _expand_positions(rg, n_terms)
    mm, rr = _f(xp, take(xp, m, owner)), _f(xp, take(xp, r, owner))
    jf = _f(xp, j)
    # exact probabilities in the common cases: r == m (J = 1) and r == 1
    # (uniform); log-binomials only where a block has both cases' neighbours
    p = xp.where(rr == mm, xp.ones_like(mm), 1.0 / mm)
    general = (rr > 1) & (rr < mm)
    if bool(xp.any(general)):
        one = xp.ones_like(mm)
        mg = xp.where(general, mm, 3 * one)  # valid arguments elsewhere
        rg_, jg = xp.where(general, rr, 2 * one), xp.where(general, jf, one)
        log_p = (lgamma(xp, mg - jg + 1) - lgamma(xp, rg_)
                 - lgamma(xp, mg - jg - rg_ + 2) - lgamma(xp, mg + 1)
                 + lgamma(xp, rg_ + 1) + lgamma(xp, mg - rg_ + 1))
        p = xp.where(general, xp.exp(log_p), p)
    terms = p / (_f(xp, take(xp, s, owner)) + jf)
    return Partials(_per_group(rg, first, sum_by_owner(xp, terms, n_terms)),
                    rg.group_n_rel > 0)


def _per_group(rg, first, values):
    """Values of the ``first`` blocks (at most one per group) as one value
    per group, 0 for the groups without one (a gather, no scatter)."""
    xp = rg.xp
    has = rg.group_sum(first) > 0
    slot = xp.clip(cumsum(xp, _i(xp, has)) - 1, 0, None)
    if values.shape[0] == 0:
        return full(xp, rg.n_groups, 0.0, rg.device)
    return _zero_unless(xp, has, take(xp, values, slot))


def ndcg(rg, k=None, gain="linear"):
    """sklearn's tie-averaged DCG over the ideal DCG of all the group's items.

    ``gain`` maps a grade to its gain (``RankedGroups.block_gain_of``).
    """
    xp = rg.xp
    dcg_ = _dcg(rg, discount_cumsum(rg.max_group_size, k, xp=xp, device=rg.device),
                gain)
    idcg = rg.ideal_dcg(k, gain)
    return Partials(safe_divide(dcg_, idcg), (rg.group_n_rel > 0) & (idcg > 0))


def _dcg(rg, disc, gain):
    """Tie-averaged DCG of each group from cumulative discounts ``disc``."""
    xp = rg.xp
    block_disc = (take(xp, disc, rg.block_start + rg.block_size)
                  - take(xp, disc, rg.block_start))
    gain_avg = _zero_unless(xp, rg.block_retrieved,
                            _f(xp, rg.block_gain_of(gain)) / rg.block_size_f)
    return rg.group_sum(gain_avg * block_disc)


def _expected_hits(rg, k):
    """Expected number of relevant items in the top k (ties in random order)."""
    return rg.group_sum(_f(rg.xp, rg.block_n_rel) * _cutoff_fraction(rg, k))


def _hits_partials(hits, den, defined):
    """Hits over a denominator; the two are the pooled average's statistics."""
    xp = namespace_of(hits)
    stats = np.stack([hits, den]) if xp is np else xp.stack([hits, den])
    return Partials(safe_divide(hits, den), defined, stats)


def hit_rate(rg, k=10):
    """Hits in the top k over the relevant items (pooled by ``"micro"``)."""
    den = _f(rg.xp, rg.group_n_rel)
    return _hits_partials(_expected_hits(rg, k), den, rg.group_n_rel > 0)


recall_at_k = hit_rate


def precision_at_k(rg, k=10, k_denominator="k"):
    """Hits in the top k over k (or over ``min(k, n)``, n the retrieved items)."""
    xp = rg.xp
    if k_denominator == "retrieved":
        unretrieved = rg.group_sum(_zero_unless(xp, ~rg.block_retrieved,
                                                rg.block_size))
        den = _f(xp, xp.clip(rg.group_size - unretrieved, None, k))
    else:
        den = full(xp, rg.n_groups, float(k), rg.device)
    return _hits_partials(_expected_hits(rg, k), den, rg.group_n_rel > 0)


# -- interpolated precision --------------------------------------------------
def recall_level_cutoffs(xp, n_rel, n_points, recall_levels, device=None):
    """Relevant items needed to reach each level, (n_groups, n_points), int64.

    The levels are ``j / (n_points - 1)``; ``n_rel`` the relevant items of
    each group; ``recall_levels`` the rule (``RECALL_LEVELS`` of the registry).
    """
    j = xp.reshape(xp.arange(n_points, dtype=xp.int64, device=device), (1, -1)) \
        if xp is not np else np.arange(n_points)[None, :]
    n_rel = xp.reshape(n_rel, (-1, 1))
    if recall_levels == "exact":  # ceil(j * R / (n_points - 1)), in integers
        return (j * n_rel + (n_points - 2)) // (n_points - 1)
    # the levels j / (N - 1) are divided on the host: a library may turn a
    # division by a constant into a product with its inverse (XLA does),
    # which moves l * R + 0.9 across an integer
    levels = xpx.asarray(xp, np.arange(n_points) / (n_points - 1), device)
    x = xp.reshape(levels, (1, -1)) * _f(xp, n_rel)
    if recall_levels == "trec_eval_9":  # (long) (l * R + 0.9)
        return _i(xp, xp.floor(x + 0.9))
    down = xp.floor(x)  # trec_eval 10: lround(l * R), halves away from zero
    return _i(xp, down + _f(xp, x - down >= 0.5))


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
    xp = rg.xp
    reach, w_rel = rg.group_cumsum_with_total(rg.block_w_pos)
    t = reach * (n_points - 1)
    bound = w_rel * (1.0 - RECALL_LEVEL_RTOL)
    level = xp.floor(safe_divide(t, bound))
    level = xp.where((level + 1) * bound <= t, level + 1, level)
    level = xp.where(level * bound > t, level - 1, level)
    return _i(xp, xp.clip(level, 0, n_points - 1))


def interpolated_precision(rg, n_points, recall_levels="exact"):
    """Interpolated precision at recall levels j/(n_points-1), (n_groups, n_points).

    The precision-recall points are the ends of the retrieved tie blocks; the
    interpolated precision at level l is the maximum precision over the points
    whose recall is >= l, and 0 where no point reaches l.  For each (group,
    level) the first block reaching the level is found by one ``searchsorted``
    on a key that increases along the blocks; the answer is that block's
    suffix maximum of precision.  Returns the matrix and the defined mask.
    """
    xp = rg.xp
    _, cum_wp, precision = retrieved_cumulative(rg)
    smax = rg.group_suffix_max(precision)
    groups = xp.arange(rg.n_groups, dtype=xp.int64, **rg.on_device)
    bg = _i(xp, rg.block_group)
    levels = xp.arange(n_points, dtype=xp.int64, **rg.on_device)
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
        if not rg.all_retrieved:
            before = concat(xp, [level[:1] * 0, level[:-1]])
            level = xp.where(rg.block_retrieved, level,
                             _zero_unless(xp, ~rg.block_is_first, before))
        span = n_points
        key = bg * span + level
        query = xp.reshape(groups * span, (-1, 1)) + xp.reshape(levels, (1, -1))
    else:
        n_rel = _i(xp, rg.group_n_rel)
        span = int(xp.max(n_rel)) + 2
        key = bg * span + _i(xp, cum_wp)
        cutoffs = recall_level_cutoffs(xp, n_rel, n_points, recall_levels, rg.device)
        query = xp.reshape(groups * span, (-1, 1)) + xp.clip(cutoffs, None, span - 1)
    n_keys = key.shape[0]
    idx = xp.searchsorted(key, xp.reshape(query, (-1,)), side="left")
    idx_c = xp.clip(idx, None, n_keys - 1)
    owner = xp.reshape(xp.reshape(groups, (-1, 1)) + 0 * xp.reshape(levels, (1, -1)),
                       (-1,))
    valid = (idx < n_keys) & (take(xp, bg, idx_c) == owner)
    iprec = _zero_unless(xp, valid, take(xp, smax, idx_c))
    return xp.reshape(iprec, (rg.n_groups, n_points)), _has_relevant(rg)


def _all_points_ap(rg):
    """VOC 2010+ all-points interpolated AP: recall steps times suffix-max precision."""
    wp, _, precision = retrieved_cumulative(rg)
    smax = rg.group_suffix_max(precision)
    return Partials(safe_divide(rg.group_sum(_f(rg.xp, wp) * smax), rg.group_w_pos),
                    _has_relevant(rg))


def interpolated_ap(rg, n_points=11, recall_levels="exact"):
    """Mean interpolated precision over the recall levels (all-points if None)."""
    if n_points is None:
        return _all_points_ap(rg)
    iprec, defined = rg.cached(("iprec", n_points, recall_levels),
                               lambda: interpolated_precision(rg, n_points,
                                                              recall_levels))
    return Partials(rg.xp.mean(iprec, axis=1), defined)


def all_points_curve(rg):
    """The interpolated precision-recall envelope of a single ranking.

    Returns ``(precision, recall)``: one point per recall reached, after
    recall 0; None when the ranking has no relevant item.
    """
    xp = rg.xp
    wp, _, precision = retrieved_cumulative(rg)
    smax = rg.group_suffix_max(precision)
    if not bool(_has_relevant(rg)[0]):
        return None
    steps = wp > 0
    reach, total = rg.group_cumsum_with_total(rg.block_w_pos)
    recall = _f(xp, reach[steps]) / _f(xp, total[steps])
    return (concat(xp, [smax[:1], smax[steps]]),
            concat(xp, [xp.zeros_like(recall[:1]) if xp is not np else
                        np.zeros(1), recall]))


# -- issue 13: success@k, R-precision, DCG, ERR, RBP, bpref --------------------
def success_at_k(rg, k=10):
    """Probability that the top k holds a relevant item (ties in random order).

    Only the group's first block with a relevant item matters: ``s`` items
    above it, ``m`` in it, ``r`` relevant.  If ``t = k - s`` of its items fit
    in the top k, the top k misses every relevant item with the hypergeometric
    probability ``C(m - r, t) / C(m, t)``.
    """
    xp = rg.xp
    first = _first_relevant(rg)
    s, m, r = rg.block_start, rg.block_size, rg.block_n_rel
    t = xp.clip(k - s, 0, None)
    t = xp.where(t < m, t, m)
    hit = _f(xp, t >= 1)  # t == 0: misses surely; t > m - r: hits surely
    partial = first & (t > 0) & (t < m) & (t <= m - r)
    if bool(xp.any(partial)):
        one = xp.ones_like(rg.block_size_f)
        mp = xp.where(partial, _f(xp, m), 3 * one)
        rp, tp = xp.where(partial, _f(xp, r), one), xp.where(partial, _f(xp, t), one)
        miss = xp.exp(lgamma(xp, mp - rp + 1) - lgamma(xp, mp - rp - tp + 1)
                      - lgamma(xp, mp + 1) + lgamma(xp, mp - tp + 1))
        hit = xp.where(partial, 1.0 - miss, hit)
    return Partials(rg.group_sum(_zero_unless(xp, first, hit)), rg.group_n_rel > 0)


def r_precision(rg):
    """Expected precision at rank R, R the group's number of relevant items."""
    n_rel = rg.group_n_rel
    hits = _expected_hits(rg, take(rg.xp, n_rel, rg.block_group))
    return Partials(safe_divide(hits, n_rel), n_rel > 0)


def dcg(rg, k=None, log_base=2, gain="linear"):
    """sklearn's tie-averaged DCG (defined for every group, 0 without gain)."""
    xp = rg.xp
    disc = discount_cumsum(rg.max_group_size, k, log_base=log_base, xp=xp,
                           device=rg.device)
    return Partials(_dcg(rg, disc, gain), full(xp, rg.n_groups, 1.0, rg.device) > 0)


def expected_reciprocal_rank(rg, k=None, max_grade=4):
    """ERR, the expected value over every order of the tied items.

    ERR of one order is ``sum_r R_r / r * prod_{s < r} (1 - R_r)`` over the
    ranks ``r <= k``, where an item of grade ``g`` stops the user with
    probability ``R = (2**g - 1) / 2**max_grade``; write ``x = 1 - R``.  The
    tie blocks of a group are ordered independently and uniformly at random.

    *Blocks above.*  For a block with ``o`` items above it, the product of
    ``x`` over those items does not depend on their order: ``C_b``, summed
    in logs within the group.

    *Within a block* of ``m`` items, the item at block position ``j + 1``
    (rank ``o + 1 + j``) adds ``C_b R_{(j+1)} prod_{l <= j} x_{(l)} / (o + 1 + j)``,
    so the block's expected term is ``C_b sum_{j < L} D_j / (o + 1 + j)``
    with ``L = min(m, k - o)`` (positions beyond the cutoff add 0) and
    ``D_j = E[R_{(j+1)} prod_{l <= j} x_{(l)}]`` under a uniform order.
    ``D_j`` and ``A_j = E[prod_{l <= j} x_{(l)}]`` (the mean of the
    elementary symmetric polynomial, ``e_j(x) / C(m, j)``) follow from the
    block's items added one at a time: a new item ``(x, R)`` joining ``n``
    items lands before position ``j + 1`` with probability ``j / (n + 1)``,
    at it with ``1 / (n + 1)``, after it otherwise, so ::

        A'_j = (j x A_{j-1} + (n + 1 - j) A_j) / (n + 1)
        D'_j = (j x D_{j-1} + R A_j + (n - j) D_j) / (n + 1)

    Every coefficient is non-negative and they sum to at most 1 (``x + R =
    1``): no cancellation, and no binomial coefficient is ever formed, so
    the relative error stays ``O(r eps)`` for blocks of any size.  Items of
    grade 0 (``x = 1``) are the start, ``A_j = 1`` (``j`` at most their
    number ``z``) and ``D_j = 0``; then the block's ``r`` relevant items are
    added.

    *Cost.*  A block costs ``r L`` updates (at most its ``m**2`` tied
    pairs; one for an untied item).  The loop runs over ``t = 1 .. max r``,
    the largest number of relevant items of one retrieved tie block that
    starts within the cutoff; step ``t`` updates the positions of the blocks
    with at least ``t`` relevant items, a prefix once the blocks are sorted
    by ``r`` (finished blocks are set aside), so the steps cost
    ``sum_b r_b L_b`` in all.
    """
    xp = rg.xp
    too_high = rg.max_grade > max_grade
    if bool(xp.any(too_high)):
        raise ValueError(
            f"y_true must be at most max_grade={max_grade} for ERR (stopping "
            f"probability (2**g - 1) / 2**max_grade); got "
            f"{float(xp.max(rg.max_grade[too_high])):g} in group "
            f"{first_label(rg.labels, too_high)!r}."
        )

    def stop_of(relevance):  # 2**(g - M) - 2**-M: (2**g - 1) / 2**M, no overflow
        return 2.0 ** (_f(xp, relevance) - max_grade) - 2.0 ** -max_grade

    def log_cont_of(relevance):
        # log(1 - R), floored where R rounds to 1 (a grade near max_grade >
        # 52): exp() of the floor is exactly 0, and no -inf - -inf makes a NaN
        with np.errstate(divide="ignore"):  # (NumPy's warning for log1p(-1))
            return xp.clip(xp.log1p(-stop_of(relevance)), -1000.0, None)

    # the stopping probabilities of the relevant items, block after block:
    # the t-th of block b is at first_rel[b] + t - 1 (grade 0 stops no one)
    grades = rg.relevant_grades
    stops = stop_of(grades)
    block_log = sum_by_owner(xp, log_cont_of(grades), rg.block_n_rel)
    reach = xp.exp(rg.group_cumsum(block_log) - block_log)  # C_b, group-local
    n_pos = rg.block_size if k is None else xp.clip(
        xp.minimum(rg.block_size, k - rg.block_start), 0, None)
    busy = rg.block_retrieved & (rg.block_n_rel > 0) & (n_pos > 0)
    busy_blocks = xpx.flatnonzero(xp, busy)
    if busy_blocks.shape[0] == 0:
        return Partials(full(xp, rg.n_groups, 0.0, rg.device), rg.group_n_rel > 0)
    # the blocks that add anything, most relevant items first
    by_rel = xpx.argsort(xp, take(xp, rg.block_n_rel, busy_blocks), descending=True)
    blocks = take(xp, busy_blocks, by_rel)
    n_rel = _i(xp, take(xp, rg.block_n_rel, blocks))
    n_pos = take(xp, n_pos, blocks)
    first_rel = take(xp, cumsum(xp, rg.block_n_rel) - rg.block_n_rel, blocks)
    owner, j = _expand_positions(rg, n_pos)
    j = _f(xp, j - 1)  # 0-based position in the block
    zeros = _f(xp, take(xp, rg.block_size, blocks)) - _f(xp, n_rel)
    a = _f(xp, j <= take(xp, zeros, owner))
    d = xp.zeros_like(a)
    # steps t = 1..max r: the blocks with at least t relevant items (a
    # prefix of `blocks`) and their positions (a prefix of the slots)
    n_steps = int(n_rel[0])
    steps = xp.arange(1, n_steps + 1, dtype=xp.int64, **rg.on_device)
    n_active = xp.searchsorted(-n_rel, -steps, side="right")
    slot_end = take(xp, concat(xp, [xp.zeros_like(n_pos[:1]), cumsum(xp, n_pos)]),
                    n_active)
    done = []
    for t in range(1, n_steps + 1):
        nb, ns = int(n_active[t - 1]), int(slot_end[t - 1])
        if ns < a.shape[0]:  # blocks with fewer than t relevant items: final
            done.append(d[ns:])
            a, d, j, owner = a[:ns], d[:ns], j[:ns], owner[:ns]
        stop = take(xp, take(xp, stops, first_rel[:nb] + (t - 1)), owner)
        n = take(xp, zeros[:nb], owner) + (t - 1)  # items placed so far
        jx = j * (1.0 - stop)
        a_before = concat(xp, [a[:1], a[:-1]])  # A_{j-1} (times j = 0 at j = 0)
        d_before = concat(xp, [d[:1], d[:-1]])
        d = _zero_unless(xp, j <= n, (jx * d_before + stop * a
                                      + xp.clip(n - j, 0.0, None) * d) / (n + 1))
        a = _zero_unless(xp, j <= n + 1,
                         (jx * a_before + xp.clip(n + 1 - j, 0.0, None) * a)
                         / (n + 1))
    done.append(d)
    d = concat(xp, done[::-1])
    owner, j = _expand_positions(rg, n_pos)
    start = _f(xp, take(xp, take(xp, rg.block_start, blocks), owner))
    terms = d * take(xp, take(xp, reach, blocks), owner) / (start + _f(xp, j))
    sums = sum_by_owner(xp, terms, n_pos)
    # back to block order (a gather through the inverse permutation)
    per_busy = take(xp, sums, xpx.argsort(xp, by_rel))
    slot = xp.clip(cumsum(xp, _i(xp, busy)) - 1, 0, None)
    per_block = _zero_unless(xp, busy, take(xp, per_busy, slot))
    return Partials(rg.group_sum(per_block), rg.group_n_rel > 0)


def rank_biased_precision(rg, p=0.8):
    """RBP: ``(1 - p) sum_i rel_i p**(i-1)``; tied items share their ranks' weights.

    A block of ``m`` items below ``s`` others holds ranks ``s+1..s+m``, whose
    weights ``(1 - p) p**(i-1)`` average to ``p**s (1 - p**m) / m``: each of
    its relevant items gets that (the expected value under a random order).
    """
    xp = rg.xp
    rel = _f(xp, _zero_unless(xp, rg.block_retrieved, rg.block_n_rel))
    m = rg.block_size_f
    weight = p ** _f(xp, rg.block_start) * (-xp.expm1(m * math.log(p))) / m
    return Partials(rg.group_sum(rel * weight), rg.group_n_rel > 0)


def rbp_residual(rg, p=0.8):
    """RBP's residual when every row is judged: ``p**n``, ``n`` the retrieved items.

    The weight of the ranks beyond the ranked list, which no relevance
    judgment covers; defined where RBP is (the query has a relevant item).
    Unjudged rows (``judged=``) add their ranks' weights in ``compute``.
    """
    xp = rg.xp
    n_ret = rg.group_sum(_zero_unless(xp, rg.block_retrieved, rg.block_size))
    return Partials(p ** _f(xp, n_ret), rg.group_n_rel > 0)


def _sum_min(xp, x, cap):
    """``sum(min(n, cap) for n in range(x))``, elementwise, in integers."""
    x = _i(xp, x)
    below = xp.minimum(x, cap + 1)
    return below * (below - 1) // 2 + xp.clip(x - cap - 1, 0, None) * cap


def bpref(rg):
    """bpref (Buckley & Voorhees 2004), as trec_eval computes it.

    Each retrieved relevant item scores ``1 - min(n, R) / min(N, R)``, ``n``
    the non-relevant items ranked above it, ``N`` the group's non-relevant
    items (retrieved or not), ``R`` its relevant items; the sum is divided by
    ``R``.  Under a random order of a tie block with ``q`` non-relevant items
    below ``n0`` others, the number of them above a given relevant item is
    uniform on ``0..q``, so the block's expected term is exact in integers.
    """
    xp = rg.xp
    n_rel = rg.group_n_rel
    n_non = rg.group_size - n_rel
    cap = xp.minimum(n_non, n_rel)  # min(N, R)
    ret = rg.block_retrieved
    q = _zero_unless(xp, ret, rg.block_size - rg.block_n_rel)
    r = _zero_unless(xp, ret, rg.block_n_rel)
    n0 = rg.group_cumsum(q) - q
    cap_b = take(xp, cap, rg.block_group)
    ranked_above = _sum_min(xp, n0 + q + 1, cap_b) - _sum_min(xp, n0, cap_b)
    penalty = safe_divide(ranked_above, (q + 1) * cap_b)
    total = rg.group_sum(_f(xp, r) * (1.0 - penalty))
    return Partials(safe_divide(total, n_rel), n_rel > 0)
