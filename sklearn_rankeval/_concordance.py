"""Weighted pair concordance within groups, exact, in O(n log n).

The computational core of ``xauc_score``: for every group, the weighted
number of pairs with different ``y_true`` that ``y_score`` orders the same
way, ties apart, and all such pairs.  No pair is enumerated and nothing is
sampled; the rows are put in one matrix per group size (a loop over the
distinct sizes, never over groups), and each matrix is worked on along its
rows, one row per group, so that a group's numbers are computed from its own
rows only.

Written once against a namespace ``xp`` (NumPy by default, or an Array API
library: only sorts, gathers along an axis, cumulative sums and bitwise
shifts), with NumPy fast paths where NumPy has a faster spelling (a sort of
packed ``int64`` keys for a stable argsort, ``maximum.accumulate`` for the
start of each run).
"""

import numpy as np

from . import _array_api as xpx
from ._array_api import astype, flatnonzero, take

__all__ = ["weighted_concordance"]


def weighted_concordance(codes, y_true, y_score, sample_weight=None, *, n_groups,
                         xp=np):
    r"""Weighted concordant, tied and comparable pairs of every group.

    For the rows :math:`i, j` of one group :math:`g`, with labels :math:`y`,
    scores :math:`s` and weights :math:`w`:

    .. math::

        C_g = \sum_{y_i > y_j,\ s_i > s_j} w_i w_j, \qquad
        T_g = \sum_{y_i > y_j,\ s_i = s_j} w_i w_j, \qquad
        N_g = \sum_{y_i > y_j} w_i w_j,

    each unordered pair counted once (as the ordered pair whose first row has
    the larger label).  The group's xAUC is :math:`(C_g + T_g / 2) / N_g`,
    undefined where :math:`N_g = 0`; with labels in {0, 1} it is the group's
    ROC AUC, and with distinct labels and scores it is
    :math:`(1 + \tau_a) / 2` (Kendall's tau-a).

    Parameters
    ----------
    codes : array-like of shape (n_samples,)
        The group of each row, integers in ``0 .. n_groups - 1``; the rows
        may come in any order.
    y_true : array-like of shape (n_samples,)
        Labels: binary, graded or continuous (e.g. watch time).  Not NaN
        (the caller validates).
    y_score : array-like of shape (n_samples,)
        Scores; ties are exact float comparisons.  Not NaN.
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights; None weighs every row 1.
    n_groups : int
        The number of groups (the length of the results); groups without
        rows get zeros.
    xp : namespace, default=numpy
        The namespace of the arrays (an Array API namespace such as
        ``array_api_strict``, or NumPy).

    Returns
    -------
    concordant : array of shape (n_groups,), float64
        :math:`C_g`.
    tied : array of shape (n_groups,), float64
        :math:`T_g`.
    total : array of shape (n_groups,), float64
        :math:`N_g`.

    Notes
    -----
    **Layout.**  The rows are grouped by one sort of the codes, and groups of
    equal size form one ``(groups, size)`` matrix (several sizes: one matrix
    per distinct size, or per power of two with zero-weight padding when
    there are many sizes; see :class:`~._array_api.SegmentPlan`).  In each
    row, one argsort by score gives the dense score rank :math:`c` of each
    item (``0 ..`` distinct scores - 1), and one stable argsort by label of
    the items in decreasing score order gives the *label order* :math:`p`:
    increasing :math:`y`, and among equal labels decreasing :math:`s`.

    **Comparable pairs.**  In label order, :math:`N_g` is the sum over items
    of :math:`w_i` times the weight before the first item of :math:`i`'s
    label (a cumulative sum read at the start of each run of equal labels).

    **Concordant pairs** are the pairs :math:`j` before :math:`i` in label
    order with :math:`c_j < c_i`: an item earlier in label order has a smaller
    label or, with an equal label, a score at least as high, so equal labels
    never pair.  Counting them is a weighted dominance count, done as in a
    wavelet matrix: a pair with :math:`c_j < c_i` splits at the highest bit
    :math:`b` where the two ranks differ, where they share
    :math:`c \gg (b + 1)`, :math:`c_j` has bit :math:`b` clear and
    :math:`c_i` has it set.  So for each bit :math:`b` of the ranks, from the
    highest down, the items are ordered by :math:`(c \gg (b + 1), p)` (one
    sort of packed integer keys along the rows, stable), and each item with
    bit :math:`b` set adds :math:`w_i` times the weight of the items before
    it in its run of equal :math:`c \gg (b + 1)` that have the bit clear (a
    cumulative sum of those weights, less its value at the start of the run).
    Every pair is counted at exactly one bit.

    **Tied pairs.**  Ordered by :math:`(c, p)`, :math:`T_g` is the sum over
    items of :math:`w_i` times the weight, within the run of equal scores,
    before the first item of the run of equal (score, label).

    **Cost.**  One sort of the codes and gathers of the three inputs; then,
    per matrix of width :math:`m` (the group size), two sorts along the rows
    for the ranks, and :math:`\lceil \log_2 d \rceil + 1` sorts of packed keys
    along the rows (:math:`d`: the largest number of distinct scores in a
    group of that size), each followed by a constant number of passes over the
    matrix.  In all :math:`O(n \log n)` time (:math:`O(n \log m)` after the
    grouping) and :math:`O(n)` memory: a few arrays of the size of the
    largest matrix.  No pair is enumerated and no Python loop runs over groups
    or rows: the loops run over the distinct group sizes and over the bits of
    the ranks.

    **Rounding.**  Weights are summed in float64 along each group's row, from
    that group's weights only: a group's results do not depend on the other
    groups.  With integer weights (or none) every sum below :math:`2^{53}`
    is exact.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_rankeval._concordance import weighted_concordance
    >>> # group 0: labels 3 > 2 > 1 scored in the same order (3 pairs);
    >>> # group 1: the two items of label 5 tie in score with the one of
    >>> # label 1 (2 tied pairs; the pair of equal labels is not comparable)
    >>> codes = np.array([0, 1, 0, 1, 0, 1])
    >>> y_true = np.array([3.0, 5.0, 1.0, 5.0, 2.0, 1.0])
    >>> y_score = np.array([0.9, 0.2, 0.1, 0.2, 0.4, 0.2])
    >>> concordant, tied, total = weighted_concordance(
    ...     codes, y_true, y_score, n_groups=2)
    >>> concordant, tied, total
    (array([3., 0.]), array([0., 2.]), array([3., 2.]))
    >>> # xAUC of each group: (concordant + tied / 2) / total
    >>> (concordant + tied / 2) / total
    array([1. , 0.5])
    """
    n_groups = _check_n_groups(n_groups)
    codes, y_true, y_score, w = _check_arrays(xp, codes, y_true, y_score,
                                              sample_weight, n_groups)
    device = xpx.device_of(y_score)
    n = y_score.shape[0]
    zeros = xpx.zeros(xp, n_groups, device)
    if n == 0:
        return zeros, xpx.zeros(xp, n_groups, device), xpx.zeros(xp, n_groups, device)

    order, first, present = _group_rows(xp, codes, n_groups)
    plan = xpx.segment_plan(xp, first, n)
    pieces = ([], [], [])
    for bucket in plan.buckets:
        rows, mask = plan.padded(order, bucket, 0)
        for out, value in zip(pieces, _bucket(xp, rows, mask, y_true, y_score, w)):
            out.append(value)
    per_present = [plan.by_segment(p) for p in pieces]
    return tuple(_expand(xp, v, present, n_groups, device) for v in per_present)


# ---------------------------------------------------------------------------
# checks and grouping
# ---------------------------------------------------------------------------
def _check_n_groups(n_groups):
    if isinstance(n_groups, bool) or not isinstance(n_groups, (int, np.integer)):
        raise TypeError(f"n_groups must be an int, got {type(n_groups).__name__}.")
    if n_groups < 0:
        raise ValueError(f"n_groups must be >= 0, got {n_groups}.")
    return int(n_groups)


def _check_arrays(xp, codes, y_true, y_score, sample_weight, n_groups):
    names = ("codes", "y_true", "y_score", "sample_weight")
    arrays = [None if a is None else xpx.asarray(xp, a, xpx.device_of(
        y_score) if xp is not np else None) for a in (codes, y_true, y_score,
                                                       sample_weight)]
    n = arrays[2].shape[0] if arrays[2].ndim == 1 else -1
    for name, a in zip(names, arrays):
        if a is not None and (a.ndim != 1 or a.shape[0] != n):
            raise ValueError(
                f"{name} must be 1-D of the length of y_score ({n}), got shape "
                f"{tuple(a.shape)}.")
    codes = arrays[0]
    if not xpx.is_integral(xp, codes):
        raise TypeError(f"codes must hold integers, got dtype {codes.dtype}.")
    codes = astype(xp, codes, xp.int64)
    if n and (int(xp.min(codes)) < 0 or int(xp.max(codes)) >= n_groups):
        raise ValueError(
            f"codes must lie in 0 .. n_groups - 1 = {n_groups - 1}, got values in "
            f"{int(xp.min(codes))} .. {int(xp.max(codes))}.")
    y_true, y_score = arrays[1], arrays[2]
    w = None if arrays[3] is None else astype(xp, arrays[3], xp.float64)
    return codes, y_true, y_score, w


def _group_rows(xp, codes, n_groups):
    """The rows grouped by code (stably), the offset of each group that has
    rows, and those groups' codes (increasing)."""
    n = codes.shape[0]
    shift = max(int(n - 1).bit_length(), 1)
    if xp is np and n_groups <= (1 << (62 - shift)):
        # one SIMD sort of unique keys (code, row): a stable argsort
        key = codes << shift
        key |= np.arange(n, dtype=np.int64)
        key.sort()
        order = key & ((1 << shift) - 1)
        key >>= shift
        sorted_codes = key
    else:
        order = xpx.argsort(xp, codes)
        sorted_codes = take(xp, codes, order)
    first = flatnonzero(xp, xpx.starts(xp, sorted_codes))
    return order, first, take(xp, sorted_codes, first)


def _expand(xp, values, present, n_groups, device):
    """Values of the groups with rows (codes ``present``, increasing) as an
    array over all ``n_groups`` codes, zero for the others."""
    if xp is np:
        out = np.zeros(n_groups)
        out[present] = values
        return out
    every = xpx.arange(xp, n_groups, device)
    slot = xp.clip(xp.searchsorted(present, every), 0, present.shape[0] - 1)
    has = take(xp, present, slot) == every
    return xp.where(has, take(xp, values, slot), xp.zeros_like(values[:1]))


# ---------------------------------------------------------------------------
# one matrix of groups (one row per group)
# ---------------------------------------------------------------------------
def _bucket(xp, rows, mask, y_true, y_score, w):
    """``(concordant, tied, total)`` of each row of a matrix of row indices
    (``mask``: the cells that hold an item; None when all do)."""
    shape = rows.shape
    flat = xp.reshape(rows, (-1,))
    y, s = (xp.reshape(take(xp, x, flat), shape) for x in (y_true, y_score))
    if w is None:
        weight = xpx.full(xp, shape, 1.0, xpx.device_of(rows))
    else:
        weight = xp.reshape(take(xp, w, flat), shape)
    if mask is not None:  # padding: weight 0 (its label and score are row 0's)
        weight = xp.where(mask, weight, xp.zeros_like(weight))
    del flat, rows

    # dense score rank c of each item, and the label order p
    # (labels increasing, equal labels by decreasing score)
    by_score = _argsort_rows(xp, s, stable=False)
    s_sorted = xp.take_along_axis(s, by_score, axis=1)
    del s
    c_sorted = _run_ids(xp, _run_firsts(xp, s_sorted))
    del s_sorted
    by_score_desc = xp.flip(by_score, axis=1)
    del by_score
    y_desc = xp.take_along_axis(y, by_score_desc, axis=1)
    del y
    by_label = _argsort_rows(xp, y_desc, stable=True)
    c = xp.take_along_axis(xp.flip(c_sorted, axis=1), by_label, axis=1)
    del c_sorted
    weight = xp.take_along_axis(
        weight, xp.take_along_axis(by_score_desc, by_label, axis=1), axis=1)
    y = xp.take_along_axis(y_desc, by_label, axis=1)
    del by_score_desc, y_desc, by_label

    # comparable pairs: the weight before each item's run of equal labels
    cum = _exclusive_cumsum(xp, weight)
    total = xp.sum(weight * _at_run_start(xp, cum, _run_firsts(xp, y)), axis=1)
    del cum

    # concordant pairs: one pass per bit of the ranks, highest first
    width = shape[1]
    n_bits = int(xp.max(c)).bit_length() if width else 0
    concordant = xp.zeros_like(total)
    for b in range(n_bits - 1, -1, -1):
        if b == n_bits - 1:  # one run per row: the label order itself
            c_b, w_b, run_first = c, weight, None
        else:
            idx, prefix = _stable_order_rows(xp, c >> (b + 1), width)
            c_b = xp.take_along_axis(c, idx, axis=1)
            w_b = xp.take_along_axis(weight, idx, axis=1)
            run_first = _run_firsts(xp, prefix)
            del idx, prefix
        high = ((c_b >> b) & 1) == 1
        del c_b
        low_w = xp.where(high, xp.zeros_like(w_b), w_b)
        before = _exclusive_cumsum(xp, low_w)
        del low_w
        if run_first is not None:
            before = before - _at_run_start(xp, before, run_first)
        concordant = concordant + xp.sum(
            xp.where(high, w_b * before, xp.zeros_like(before)), axis=1)
        del high, before, w_b, run_first

    # tied pairs: ordered by (c, p), the weight of the run of equal scores
    # before the item's run of equal (score, label)
    if n_bits:
        idx, c_run = _stable_order_rows(xp, c, width)
        w_t = xp.take_along_axis(weight, idx, axis=1)
        y_t = xp.take_along_axis(y, idx, axis=1)
        del idx, c, y, weight
        score_first = _run_firsts(xp, c_run)
        pair_first = score_first | _run_firsts(xp, y_t)
        del c_run, y_t
        cum = _exclusive_cumsum(xp, w_t)
        tied = xp.sum(w_t * (_at_run_start(xp, cum, pair_first)
                             - _at_run_start(xp, cum, score_first)), axis=1)
    else:  # every row has one score: no pair is ordered
        tied = total
    return concordant, tied, total


def _argsort_rows(xp, x, stable):
    if xp is np:
        return np.argsort(x, axis=1, kind="stable" if stable else None)
    return xp.argsort(x, axis=1, stable=stable)


def _stable_order_rows(xp, key, width):
    """Stable argsort of each row of a non-negative integer ``key``, and the
    sorted key.  NumPy: one sort of ``key << bits | column`` (unique keys, so
    a plain SIMD sort is stable); ``key < width``, so it fits in 63 bits."""
    if xp is np:
        bits = max(int(width - 1).bit_length(), 1)
        packed = key << bits
        packed |= np.arange(width, dtype=packed.dtype)
        packed.sort(axis=1)
        idx = packed & ((1 << bits) - 1)
        packed >>= bits
        return idx, packed
    idx = xp.argsort(key, axis=1, stable=True)
    return idx, xp.take_along_axis(key, idx, axis=1)


def _run_firsts(xp, x):
    """Whether each cell starts a run of equal values along its row."""
    first = xp.ones((x.shape[0], 1), dtype=xp.bool, **_device_kw(xp, x))
    return xp.concat([first, x[:, 1:] != x[:, :-1]], axis=1)


def _run_ids(xp, firsts):
    """The index of each cell's run within its row (0, 0, 1, 1, 1, 2, ...)."""
    return _cumsum_rows(xp, astype(xp, firsts, xp.int64)) - 1


def _cumsum_rows(xp, x):
    if xp is np:
        return np.cumsum(x, axis=1)
    return xp.cumulative_sum(x, axis=1)


def _exclusive_cumsum(xp, x):
    """Sum of the earlier cells of each row (float64, left to right)."""
    return _cumsum_rows(xp, x) - x


def _at_run_start(xp, x, firsts):
    """``x`` at the first cell of each cell's run (``firsts``: the cells that
    start a run; the first column always does)."""
    if xp is np:
        col = np.where(firsts, np.arange(x.shape[1]), 0)
        np.maximum.accumulate(col, axis=1, out=col)
        return np.take_along_axis(x, col, axis=1)
    flat_firsts = xp.reshape(firsts, (-1,))
    starts = flatnonzero(xp, flat_firsts)
    run = xpx.cumsum(xp, astype(xp, flat_firsts, xp.int64)) - 1
    return xp.reshape(take(xp, xp.reshape(x, (-1,)), take(xp, starts, run)),
                      x.shape)


def _device_kw(xp, x):
    return {} if xp is np else {"device": xpx.device_of(x)}
