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
packed ``int64`` keys for a stable argsort, 1-D gathers by flat index for
``take_along_axis``, ``maximum.accumulate`` for the start of each run).
"""

import numpy as np

from .._core import astype, flatnonzero, take, xpx

__all__ = ["weighted_concordance"]

#: Bits of the non-negative ``int64`` keys that pack several sort keys into
#: one (NumPy's SIMD sort of values is several times faster than an argsort).
_KEY_BITS = 62


def weighted_concordance(codes, y_true, y_score, sample_weight=None, *, n_groups,
                         xp=np, group_sizes=None):
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
    codes : array-like of shape (n_samples,) or None
        The group of each row, integers in ``0 .. n_groups - 1``; the rows
        may come in any order.  None with ``group_sizes``.
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
    group_sizes : array of shape (n_groups,), default=None
        Rows already grouped and ranked, as the engine's ranked order gives
        them (the unranked view of a ranking in rank order,
        ``UnrankedRows.in_rank_order``): group ``g`` holds the next
        ``group_sizes[g]`` rows (at least one), its scores non-increasing
        (tied rows in any order).
        Then neither the groups nor the scores are sorted here (``codes``
        unused).

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

    **Cost.**  One sort of the codes (NumPy: a SIMD sort of packed
    ``(code, row)`` keys) and gathers of the three inputs; then, per matrix of
    width :math:`m` (a group size), two argsorts along the rows for the ranks
    and the label order, and :math:`\lceil \log_2 d \rceil` sorts of packed
    keys along the rows (:math:`d`: the largest number of distinct scores in
    a group of that size; the highest bit needs no sort, the tied pairs one),
    each followed by a constant number of passes over the matrix.  In all
    :math:`O(n \log n)` time (:math:`O(n \log m)` after the grouping) and
    :math:`O(n)` memory: a few arrays of the size of the largest matrix.  No
    pair is enumerated and no Python loop runs over groups or rows: the loops
    run over the distinct group sizes and over the bits of the ranks.
    (Timings beside ``np.argsort``: ``benchmarks/bench_xauc.py``.)

    **Rounding.**  Weights are summed in float64 along each group's row, from
    that group's weights only: a group's results do not depend on the other
    groups.  With integer weights (or none) every sum below :math:`2^{53}`
    is exact.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_rankeval._metrics._concordance import weighted_concordance
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
    ranked = group_sizes is not None
    if ranked:  # (the engine's order: one row per group, as codes here)
        codes = xpx.repeat_index(xp, group_sizes)
    codes, y_true, y_score, w = _check_arrays(xp, codes, y_true, y_score,
                                              sample_weight, n_groups)
    device = xpx.device_of(y_score)
    n = y_score.shape[0]
    if n == 0:
        return tuple(xpx.zeros(xp, n_groups, device) for _ in range(3))

    if ranked:
        order = xpx.arange(xp, n, device)
        first = xpx.cumsum(xp, group_sizes) - group_sizes
        present = xpx.arange(xp, n_groups, device)
    else:
        order, first, present = _group_rows(xp, codes, n_groups)
    plan = xpx.segment_plan(xp, first, n)
    pieces = ([], [], [])
    for bucket in plan.buckets:
        rows, mask = plan.padded(order, bucket, 0)
        for out, value in zip(pieces, _bucket(xp, rows, mask, y_true, y_score, w,
                                              ranked)):
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
    if xp is np and n_groups.bit_length() + shift <= _KEY_BITS:
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
def _bucket(xp, rows, mask, y_true, y_score, w, ranked=False):
    """``(concordant, tied, total)`` of each row of a matrix of row indices
    (``mask``: the cells that hold an item; None when all do; ``ranked``:
    each row's items come in decreasing score order)."""
    m = _Rows(xp, rows.shape)
    y, s = (m.gather_input(x, rows) for x in (y_true, y_score))
    if w is None:
        weight = xpx.full(xp, rows.shape, 1.0, xpx.device_of(rows))
    else:
        weight = m.gather_input(w, rows)
    if mask is not None:  # padding: weight 0 (its label and score are row 0's)
        weight = xp.where(mask, weight, xp.zeros_like(weight))
        if ranked:  # (last in each row: there the row's lowest score)
            s = xp.where(mask, s, xp.min(s, axis=1, keepdims=True))
    del rows, mask

    # dense score rank c of each item, and the label order p
    # (labels increasing, equal labels by decreasing score)
    if ranked:  # the items in decreasing score order already
        c = xp.flip(m.run_ids(m.run_firsts(xp.flip(s, axis=1))), axis=1)
    else:
        by_score = m.argsort(s, stable=False)
        c = m.run_ids(m.run_firsts(m.take(s, by_score)))
        by_score = xp.flip(by_score, axis=1)
        c = xp.flip(c, axis=1)
        y = m.take(y, by_score)
        weight = m.take(weight, by_score)
        del by_score
    del s
    by_label = m.argsort(y, stable=True)
    c = m.take(c, by_label)
    y = m.take(y, by_label)
    weight = m.take(weight, by_label)
    del by_label

    # comparable pairs: the weight before each item's run of equal labels
    total = xp.sum(weight * m.at_run_start(m.exclusive_cumsum(weight),
                                           m.run_firsts(y)), axis=1)

    # concordant pairs: one pass per bit of the ranks, highest first
    n_bits = int(xp.max(c)).bit_length()
    concordant = xp.zeros_like(total)
    for b in range(n_bits - 1, -1, -1):
        if b == n_bits - 1:  # one run per row: the label order itself
            high, w_b, firsts = ((c >> b) & 1) == 1, weight, None
        else:
            order, prefix, high = m.sort_by_prefix(c, b + 1, b)
            w_b = m.take(weight, order)
            firsts = m.run_firsts(prefix)
            del order, prefix
        before = m.exclusive_cumsum(xp.where(high, xp.zeros_like(w_b), w_b))
        if firsts is not None:
            before = before - m.at_run_start(before, firsts)
        concordant = concordant + xp.sum(
            xp.where(high, w_b * before, xp.zeros_like(before)), axis=1)
        del high, w_b, firsts, before

    # tied pairs: ordered by (c, p), the weight in the run of equal scores
    # before the item's run of equal (score, label)
    if not n_bits:  # every row has one score: every comparable pair ties
        return concordant, total, total
    order, c, _ = m.sort_by_prefix(c, 0, None)
    weight = m.take(weight, order)
    y = m.take(y, order)
    del order
    score_first = m.run_firsts(c)
    pair_first = score_first | m.run_firsts(y)
    del c, y
    cum = m.exclusive_cumsum(weight)
    tied = xp.sum(weight * (m.at_run_start(cum, pair_first)
                            - m.at_run_start(cum, score_first)), axis=1)
    return concordant, tied, total


class _Rows:
    """Row-wise operations on the ``(groups, width)`` matrices of a bucket.

    An *order* is what :meth:`argsort` returns and :meth:`take` reads: with
    NumPy, indices into the flattened matrix (so that reordering is one 1-D
    gather, not ``take_along_axis``); otherwise column indices.
    """

    def __init__(self, xp, shape):
        self.xp, self.shape = xp, shape
        self.width = shape[1]
        self.bits = max(int(self.width - 1).bit_length(), 1)
        if xp is np:
            # the flat index of each cell, and of each row's first cell
            self.cell = np.arange(shape[0] * shape[1], dtype=np.int64).reshape(shape)
            self.base = self.cell[:, :1]

    def gather_input(self, x, rows):
        xp = self.xp
        return xp.reshape(take(xp, x, xp.reshape(rows, (-1,))), self.shape)

    def take(self, x, order):
        if self.xp is np:
            return np.take(x.reshape(-1), order)
        return self.xp.take_along_axis(x, order, axis=1)

    def argsort(self, x, stable):
        if self.xp is np:
            order = np.argsort(x, axis=1, kind="stable" if stable else None)
            order += self.base
            return order
        return self.xp.argsort(x, axis=1, stable=stable)

    def sort_by_prefix(self, c, shift, bit):
        """The stable order of each row by ``c >> shift``, the sorted
        ``c >> shift``, and (``bit`` not None) whether bit ``bit`` of the
        sorted ``c`` is set.

        NumPy: one sort of unique ``int64`` keys packing (prefix, column,
        bit) -- a plain SIMD sort, stable since the column is in the key --
        when it fits (``c < width``: rows under 2**30 cells); else a stable
        argsort.
        """
        xp = self.xp
        if xp is np and 2 * self.bits + 1 <= _KEY_BITS:
            key = c >> shift
            key <<= self.bits + 1
            key |= self.cell[0] << 1
            if bit is not None:
                key |= (c >> bit) & 1
            key.sort(axis=1)
            high = None if bit is None else (key & 1).astype(bool)
            order = key >> 1
            order &= (1 << self.bits) - 1
            order += self.base
            key >>= self.bits + 1
            return order, key, high
        prefix = c >> shift
        order = self.argsort(prefix, stable=True)
        high = None if bit is None else ((self.take(c, order) >> bit) & 1) == 1
        return order, self.take(prefix, order), high

    def run_firsts(self, x):
        """Whether each cell starts a run of equal values along its row."""
        xp = self.xp
        if xp is np:  # (NumPy 1.x has no np.concat)
            first = np.ones((x.shape[0], 1), dtype=bool)
        else:
            first = xp.ones((x.shape[0], 1), dtype=xp.bool,
                            device=xpx.device_of(x))
        return xpx.concat(xp, [first, x[:, 1:] != x[:, :-1]], axis=1)

    def run_ids(self, firsts):
        """The index of each cell's run within its row (0, 0, 1, 1, 1, 2...)."""
        return self.cumsum(astype(self.xp, firsts, self.xp.int64)) - 1

    def cumsum(self, x):
        if self.xp is np:
            return np.cumsum(x, axis=1)
        return self.xp.cumulative_sum(x, axis=1)

    def exclusive_cumsum(self, x):
        """Sum of the earlier cells of each row (left to right)."""
        return self.cumsum(x) - x

    def at_run_start(self, x, firsts):
        """``x`` at the first cell of each cell's run (``firsts``: the cells
        that start a run; the first column always does)."""
        xp = self.xp
        if xp is np:
            # the flat index of the run's first cell: a running maximum over
            # the flattened matrix (each row's first cell starts a run)
            start = np.where(firsts, self.cell, 0).reshape(-1)
            np.maximum.accumulate(start, out=start)
            return np.take(x.reshape(-1), start).reshape(self.shape)
        flat_firsts = xp.reshape(firsts, (-1,))
        starts = flatnonzero(xp, flat_firsts)
        run = xpx.cumsum(xp, astype(xp, flat_firsts, xp.int64)) - 1
        return xp.reshape(take(xp, xp.reshape(x, (-1,)), take(xp, starts, run)),
                          self.shape)
