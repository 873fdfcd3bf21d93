"""The canonical form every ranker builds: :class:`RankedGroups`.

A *tie block* is a maximal run of items of one group with equal scores; the
metrics are computed from block-level counts only (items ranked above the
block, block size, relevant items in it, their gain and weights), which is
what makes every value independent of the order of the input rows.

A ranker builds one :class:`RankedGroups`, complete, with the rows behind
its blocks: :class:`SortedRows` (every row in rank order: the generic
ranker and the unmerged blocks) or :class:`CountedRows` (the compiled pass:
the relevant rows' grades in rank order, the other rows only counted), or,
for the multiclass layout, block counts alone.  Every per-block sum of the
grades goes through :meth:`RankedGroups.block_gain_of`, and every ideal
ordering through :func:`ideal_runs`.

The compiled pass may also compute a metric's per-group statistics itself
(:meth:`RankedGroups.native_stat`); when every metric of a call has them, it
builds no blocks at all (a *light* :class:`RankedGroups`: the per-group
totals only).
"""

import math

import numpy as np

from .._core import astype, flatnonzero, take, xpx
from ._rows import check_unranked_layout

__all__ = ["CountedRows", "RankedGroups", "SortedRows", "discount_cumsum",
           "discounts", "ideal_runs"]

#: Integer grades up to this value are counted per group for the ideal
#: ordering (no sort); larger or fractional grades are sorted within groups.
MAX_COUNTED_GRADE = 255


class SortedRows:
    """The rows of a ranking in rank order (group by group, best score first).

    Parameters
    ----------
    grades : array of shape (n_rows,)
        ``y_true`` of each row (any real dtype).
    weights : array of shape (n_rows,) or None
        ``sample_weight`` of each row (None: unweighted).
    bstarts, gstarts : int arrays
        The rows that start a tie block, a group (every group start starts a
        block).
    """

    def __init__(self, xp, grades, weights, bstarts, gstarts):
        self.xp = xp
        self.grades = grades
        self.weights = weights
        self.bstarts = bstarts
        self.gstarts = gstarts
        self.n = grades.shape[0]
        self._plans = {}

    def _plan(self, name):
        if name not in self._plans:
            first = self.bstarts if name == "blocks" else self.gstarts
            self._plans[name] = (first if self.xp is np
                                 else xpx.segment_plan(self.xp, first, self.n))
        return self._plans[name]

    def block_sums(self, x, dtype):
        """Sum of a row-level array over each block (the rows themselves when
        no two rows tie)."""
        xp = self.xp
        if self.bstarts.shape[0] == x.shape[0]:
            return astype(xp, x, dtype)
        if xp is np:
            return np.add.reduceat(x, self.bstarts, dtype=dtype)
        return astype(xp, xpx.segment_reduce(xp, x, self._plan("blocks"), "sum"),
                      dtype)

    def group_reduce(self, x, op):
        """``op`` ("sum", "max", "min") of a row-level array over each group."""
        return xpx.segment_reduce(self.xp, x, self._plan("groups"), op)

    def row_group(self):
        """Each row's group index."""
        return xpx.repeat_index(self.xp, xpx.diff_append(self.xp, self.gstarts,
                                                         self.n))

    # -- what RankedGroups reads of its rows ---------------------------------
    def item_weights(self):
        """``(block_w_pos, block_w_neg, group_weight, query_weight)``: the item
        weights of the relevant and other items of each block, each over the
        group's largest weight; each group's total weight and the weight of
        its first row."""
        xp = self.xp
        item_w = self.weights
        w_max = self.group_reduce(item_w, "max")
        w_max = xp.where(w_max == 0, xp.ones_like(w_max), w_max)
        w_item = item_w / take(xp, w_max, self.row_group())
        rel = self.grades > 0
        zero = xp.zeros_like(w_item)
        return (self.block_sums(xp.where(rel, w_item, zero), xp.float64),
                self.block_sums(xp.where(rel, zero, w_item), xp.float64),
                self.group_reduce(item_w, "sum"), take(xp, item_w, self.gstarts))

    def weight_spread(self):
        """Whether the weights vary within a group."""
        return bool(self.xp.any(self.group_reduce(self.weights, "min")
                                != self.group_reduce(self.weights, "max")))

    def relevant_grades(self):
        xp = self.xp
        return astype(xp, take(xp, self.grades, flatnonzero(xp, self.grades > 0)),
                      xp.float64)

    def block_gain(self, gain):
        grades = self.grades
        if gain != "linear":
            grades = _gain_values(gain, grades, self.xp)
        return self.block_sums(grades, self.xp.float64)

    def max_grade(self):
        return astype(self.xp, self.group_reduce(self.grades, "max"),
                      self.xp.float64)

    def ideal_runs(self):
        return ideal_runs(self.xp, self.grades, self.gstarts)


class CountedRows:
    """The rows behind the compiled pass's merged blocks (NumPy).

    Only the relevant rows are kept: ``grades`` holds their grades (float64)
    block after block in rank order; every other row has grade 0.  The
    weights come summed by block (over the group's largest weight, as
    :meth:`SortedRows.item_weights` gives them).

    Parameters
    ----------
    grades : ndarray of shape (n_relevant,)
    group_size, group_n_rel : ndarray of shape (n_groups,)
    block_n_rel, block_size : ndarray of shape (n_blocks,)
    weights : tuple or None
        ``(block_w_pos, block_w_neg, group_weight, query_weight)``, None when
        unweighted.
    spread : bool
        Whether the weights vary within a group.
    """

    xp = np

    def __init__(self, grades, group_size, group_n_rel, block_n_rel, block_size,
                 weights=None, spread=False):
        self.grades = grades
        self.group_size = group_size
        self.group_n_rel = group_n_rel
        self.block_n_rel = block_n_rel
        self.block_size = block_size
        self.weights = weights
        self.spread = spread

    def item_weights(self):
        return self.weights

    def weight_spread(self):
        return self.spread

    def relevant_grades(self):
        return self.grades

    def block_gain(self, gain):
        """Sums of ``gain`` over each block's rows: its relevant rows' gains
        plus ``gain(0)`` for each of the others."""
        gains = _gain_values(gain, self.grades)
        out = np.zeros(self.block_n_rel.shape[0])
        has = np.flatnonzero(self.block_n_rel)
        if has.shape[0]:
            first = np.cumsum(self.block_n_rel) - self.block_n_rel
            out[has] = np.add.reduceat(gains, first[has])
        others = self.block_size - self.block_n_rel
        if others.any():  # (a gain need not be defined at a grade no row has)
            zero = float(_gain_values(gain, np.zeros(1))[0])
            if zero != 0.0:
                out += zero * others
        return out

    def max_grade(self):
        out = np.zeros(self.group_n_rel.shape[0])
        has = np.flatnonzero(self.group_n_rel)
        if has.shape[0]:
            first = np.cumsum(self.group_n_rel) - self.group_n_rel
            out[has] = np.maximum.reduceat(self.grades, first[has])
        return out

    def ideal_runs(self):
        """:func:`ideal_runs` of the relevant grades, then each group's run of
        grade 0 (its other rows)."""
        first = np.cumsum(self.group_n_rel) - self.group_n_rel
        gid, start, size, grade = ideal_runs(np, self.grades, first)
        zeros = self.group_size - self.group_n_rel
        zgid = np.flatnonzero(zeros)
        gid = np.concatenate([gid, zgid])
        order = np.argsort(gid, kind="stable")  # each group's zero run last
        return (gid[order],
                np.concatenate([start, self.group_n_rel[zgid]])[order],
                np.concatenate([size, zeros[zgid]])[order],
                np.concatenate([grade, np.zeros(zgid.shape[0])])[order])


class RankedGroups:
    """Tie blocks of every group, in rank order (the engine's canonical form).

    Blocks are stored group after group, and within a group from the highest
    score to the lowest.  Items with score ``-inf`` (not retrieved) form the
    last block of their group, flagged by ``block_retrieved = False``.  Built
    once by a ranker with every field; the properties are derived from them
    (and cached).  A *light* instance (built by the compiled pass when it
    computed every statistic of a call itself, :meth:`native_stat`) has the
    per-group fields only: ``block_*`` are None.

    Attributes
    ----------
    n_groups : int
    labels : ndarray of shape (n_groups,)
        Group ids in output order (sorted unique ids; row index in the 2-D and
        multiclass layouts).
    group_size : ndarray of shape (n_groups,), int64
    group_first_block : ndarray of shape (n_groups,), int64
        Offset of each group's first block.
    group_weight : ndarray of shape (n_groups,), float64
        Sum of the sample weights of the group's rows (its size if unweighted).
    query_weight : ndarray of shape (n_groups,) or None
        The weight of the group's first row (or the query's weight); None
        when unweighted.
    item_weighted : bool
        Whether the blocks carry float item weights (``block_w_pos``,
        ``block_w_neg``).  Within each group they are the rows' weights divided
        by the group's largest weight, so that every per-group value is
        computed on the same scale whatever the other groups hold, and a
        weight constant within a group is exactly 1 (the unweighted counts).
    per_query_weights : bool
        Whether ``sample_weight`` gave one weight per query (2-D and
        multiclass layouts): then it weights the query in every average.
    block_start, block_size, block_n_rel : ndarray of shape (n_blocks,)
        Number of items of the group ranked strictly above the block, its
        number of items, and its number of relevant (``y_true > 0``) items.
    block_retrieved : ndarray of shape (n_blocks,), bool
    block_w_pos, block_w_neg : ndarray of shape (n_blocks,)
        Sample weight of the relevant / non-relevant items of the block (the
        counts, as int64, when unweighted).
    block_gain, block_exp2_gain : ndarray of shape (n_blocks,), float64
        Sums of ``y_true`` and of ``2**y_true - 1`` over the block
        (:meth:`block_gain_of`).
    """

    def __init__(self, *, xp, device, labels, group_size, group_first_block=None,
                 block_start=None, block_size=None, block_n_rel=None,
                 block_retrieved=None, rows=None, query_weights=None,
                 totals=None, native=None):
        self.xp = xp
        self.device = device
        #: ``device=`` keyword for array creation (none for NumPy 1.x)
        self.on_device = {} if xp is np else {"device": device}
        self.labels = labels
        self.n_groups = labels.shape[0]
        self.group_size = group_size
        self.group_first_block = group_first_block
        self.block_start = block_start
        self.block_size = block_size
        self.block_n_rel = block_n_rel
        self.block_retrieved = block_retrieved
        #: what the rows behind the blocks give (:class:`SortedRows`,
        #: :class:`CountedRows`; None: binary relevance known from the block
        #: counts alone, the multiclass layout)
        self.rows = rows
        #: the compiled pass's per-group statistics (:meth:`native_stat`)
        self.native = native
        self._unranked = None
        self._rank_order = None
        #: the input's columns by name (one entry per row of the call, in
        #: input order; the 2-D layout's rows flattened), which
        #: :meth:`column` hands back in rank order (set by the pipeline)
        self.columns = {}
        self._cache = {}
        if totals is not None:  # a light instance: the pass's group totals
            n_rel, self.group_weight, self.query_weight, spread = totals
            self._cache["n_rel"] = n_rel
            self._cache["weight_spread"] = spread
            self.block_w_pos = self._block_w_neg = None
            self.item_weighted = self.query_weight is not None
        elif rows is not None and rows.weights is not None:
            (self.block_w_pos, self._block_w_neg, self.group_weight,
             self.query_weight) = rows.item_weights()
            self.item_weighted = True
        else:
            self.block_w_pos = block_n_rel
            self._block_w_neg = None
            self.group_weight = astype(xp, group_size, xp.float64)
            self.query_weight = None
            self.item_weighted = False
        self.per_query_weights = query_weights is not None
        if query_weights is not None:  # one weight per query (2-D, multiclass)
            self.query_weight = query_weights
            self.group_weight = query_weights * self.group_weight

    def cached(self, key, fn):
        """``fn()``, computed once per ranked input and ``key``."""
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    _cached = cached

    @property
    def unranked(self):
        """The rows of the same groups, unranked (:class:`~._rows.UnrankedRows`,
        set by the ranker that built this input from its rows; the
        multiclass layout has none)."""
        if self._unranked is None:
            check_unranked_layout("multiclass")
        return self._unranked

    @unranked.setter
    def unranked(self, view):
        self._unranked = view

    def set_rank_order(self, order):
        """Set by the ranker: ``order()`` gives the indices of its rows in
        rank order (see :meth:`rank_order`)."""
        self._rank_order = order

    def of_rows(self, rows):
        """This ranking is of the rows ``rows`` of the call (a chunk's rows,
        :mod:`._chunks`: a slice or indices): :meth:`rank_order` gives the
        call's rows."""
        inner = self._rank_order
        if inner is not None:
            self._rank_order = lambda: take(self.xp, rows, inner()) \
                if not isinstance(rows, slice) else inner() + (rows.start or 0)

    def rank_order(self):
        """The indices of the call's rows in rank order: group after group
        (:attr:`labels` order), within a group score descending, tied rows
        in input order (the 2-D layout: indices of the flattened rows).
        What a kernel gathers a column by (:meth:`column`)."""
        if self._rank_order is None:
            raise ValueError("this ranking keeps no row order (the multiclass "
                             "layout, or a ranking of block counts only).")
        return self.cached("rank_order", self._rank_order)

    def column(self, name):
        """The input's column ``name`` in rank order (:meth:`rank_order`,
        gathered along the first axis): a column of :attr:`columns`
        (``"intent_grades"``, a reader's column of
        :data:`~._checks.COLUMN_READERS`), or ``"y_true"``, ``"y_score"``,
        ``"sample_weight"``.  The kernels of a new kind of judgment read it
        here; ties are theirs to handle (the scores in rank order are
        ``column("y_score")``)."""
        if name not in self.columns:
            raise KeyError(f"the input has no column {name!r} (it has "
                           f"{', '.join(sorted(self.columns)) or 'none'}).")

        def gather():
            values = self.columns[name]
            return None if values is None else take(self.xp, values,
                                                    self.rank_order())

        return self.cached(("column", name), gather)

    def native_stat(self, stat):
        """The per-group statistics of ``stat`` (a :class:`~._native.Statistic`,
        or None) as the compiled pass computed them: ``(value, defined,
        stats)`` arrays, or None (then the metric's kernel computes them)."""
        return None if self.native is None else self.native.get(self, stat)

    # -- block-level statistics ---------------------------------------------
    @property
    def block_w_neg(self):
        if self._block_w_neg is None:
            return self._cached("block_w_neg",
                                lambda: self.block_size - self.block_n_rel)
        return self._block_w_neg

    @property
    def block_group(self):
        """Group of each block."""
        return self._cached("block_group",
                            lambda: xpx.repeat_index(self.xp, self.blocks_per_group))

    @property
    def segments(self):
        """The groups as segments of the blocks (offsets for NumPy, else a
        :class:`~.._array_api.SegmentPlan` built once)."""
        return self._cached("segments", lambda: xpx.segment_plan(
            self.xp, self.group_first_block, self.block_size.shape[0]))

    @property
    def blocks_per_group(self):
        return self._cached("blocks_per_group", lambda: xpx.diff_append(
            self.xp, self.group_first_block, self.block_size.shape[0]))

    @property
    def block_is_first(self):
        """Whether each block is its group's first."""
        return self._cached("block_is_first",
                            lambda: xpx.starts(self.xp, self.block_group))

    @property
    def block_size_f(self):
        """:attr:`block_size` as float64."""
        return self._cached("block_size_f",
                            lambda: astype(self.xp, self.block_size, self.xp.float64))

    @property
    def all_retrieved(self):
        """Whether every block is retrieved (no ``-inf`` score)."""
        return self._cached("all_retrieved",
                            lambda: bool(self.xp.all(self.block_retrieved)))

    @property
    def block_gain(self):
        return self.block_gain_of("linear")

    @property
    def block_exp2_gain(self):
        return self.block_gain_of("exponential")

    @property
    def relevant_grades(self):
        """``y_true`` of the relevant items (``y_true > 0``), float64, block
        after block: block ``b``'s start at ``cumsum(block_n_rel)[b] -
        block_n_rel[b]`` (in no particular order within it).  Layouts that
        keep no rows (multiclass) have grade 1 for every relevant item."""
        def compute():
            xp = self.xp
            if self.rows is None:
                return xpx.full(xp, int(xp.sum(self.block_n_rel)), 1.0, self.device)
            return self.rows.relevant_grades()
        return self._cached("relevant_grades", compute)

    def block_gain_of(self, gain):
        """Sum over each block of ``gain(y_true)`` (computed once per gain).

        ``gain`` is ``"linear"`` (the grades), ``"exponential"``
        (``2**y_true - 1``) or an elementwise callable of the relevance.
        """
        return self._cached(("block_gain_of", gain), lambda: self._block_gain(gain))

    def _block_gain(self, gain):
        xp = self.xp
        if self.rows is None:  # binary relevance: n_rel * gain(1) + rest * gain(0)
            one, zero = (float(v) for v in _gain_values(gain, np.array([1.0, 0.0])))
            n_rel = astype(xp, self.block_n_rel, xp.float64)
            out = n_rel * one
            if zero != 0.0:
                out = out + astype(xp, self.block_size - self.block_n_rel,
                                   xp.float64) * zero
            return out
        return self.rows.block_gain(gain)

    @property
    def max_grade(self):
        """The largest ``y_true`` of each group, shape (n_groups,)."""
        def compute():
            xp = self.xp
            if self.rows is None:
                return xp.ones(self.n_groups, dtype=xp.float64, **self.on_device)
            return self.rows.max_grade()
        return self._cached("max_grade", compute)

    # -- segment arithmetic over the blocks of each group -------------------
    def group_sum(self, x):
        """Sum of a block-level array within each group, shape (n_groups,)."""
        return xpx.segment_reduce(self.xp, x, self.segments, "sum")

    def group_cumsum(self, x):
        """Inclusive cumulative sum of a block-level array within each group.

        Integers: one cumulative sum over all blocks, differenced at the group
        offsets (exact).  Floats: summed within each group only, left to right
        (:func:`~.._array_api.segment_cumsum`), so that no other group's values
        enter a group's sums through rounding.
        """
        xp = self.xp
        if xp is np and x.dtype.kind in "iub":
            cs = np.cumsum(x, dtype=np.int64)
            first = self.group_first_block
            before = cs[first] - x[first]
            cs -= np.repeat(before, self.blocks_per_group)
            return cs
        if xp is not np and xp.isdtype(x.dtype, ("integral", "bool")):
            x = astype(xp, x, xp.int64)
            cs = xpx.cumsum(xp, x)
            first = self.group_first_block
            before = take(xp, cs, first) - take(xp, x, first)
            return cs - take(xp, before, self.block_group)
        return xpx.segment_cumsum(xp, x, self.segments)

    def group_cumsum_with_total(self, x):
        """Cumulative sum of ``x`` within each group, and each block's group total.

        The total is read off the same cumulative sum (its value at the
        group's last block), so that the last block's share is exactly 1 even
        with float weights.
        """
        xp = self.xp
        cum = self.group_cumsum(x)
        last = self.group_first_block + self.blocks_per_group - 1
        return cum, take(xp, take(xp, cum, last), self.block_group)

    def group_suffix_max(self, x):
        """Maximum of ``x`` over the block and every later block of its group.

        Exact (no offsets added to floats): the values are replaced by their
        rank among the distinct values, the ranks are shifted by group so that a
        reversed running maximum cannot cross a group boundary, and mapped back.
        """
        if self.xp is not np:
            return xpx.segment_suffix_max(self.xp, x, self.segments)
        if len(x) == 0:
            return x.astype(np.float64)
        uniq, inv = np.unique(x, return_inverse=True)
        inv = inv.reshape(-1).astype(np.int64)
        shift = (self.n_groups - 1 - self.block_group).astype(np.int64) * len(uniq)
        key = inv + shift
        suffix = np.maximum.accumulate(key[::-1])[::-1]
        return uniq[suffix - shift]

    # -- cached group-level totals ------------------------------------------
    @property
    def group_n_rel(self):
        """Number of relevant items of each group, retrieved or not."""
        return self._cached("n_rel", lambda: self.group_sum(self.block_n_rel))

    @property
    def group_w_pos(self):
        return self._cached("w_pos", lambda: self.group_sum(self.block_w_pos))

    @property
    def group_w_neg(self):
        if not self.item_weighted:
            return self._cached("w_neg", lambda: self.group_size - self.group_w_pos)
        return self._cached("w_neg", lambda: self.group_sum(self.block_w_neg))

    @property
    def max_group_size(self):
        return int(self.xp.max(self.group_size))

    def check_query_weights(self, func_name):
        """Query-weighted metrics need one weight per group (constant within it)."""
        if "weight_spread" not in self._cache:
            rows = self.rows
            if rows is None or rows.weights is None:
                return
        if self._cached("weight_spread", lambda: self.rows.weight_spread()):
            raise ValueError(
                f"sample_weight must be constant within each group for "
                f"{func_name}: its definition has no item weights, so the weight "
                f"of a group's rows is the weight of that query."
            )

    def ideal_dcg(self, k=None, gain="linear"):
        """DCG of the ideal ordering of all items (retrieved or not), truncated at k.

        The ideal ordering sorts the items by grade (:func:`ideal_runs`);
        ``gain`` (as in :meth:`block_gain_of`) maps each grade to its gain.
        """
        xp = self.xp
        gid, start, size, grade = self._cached("ideal_runs", self._ideal_runs)
        gains = _gain_values(gain, grade, xp)
        disc = discount_cumsum(self.max_group_size, k, xp=xp, device=self.device)
        contrib = gains * (take(xp, disc, start + size) - take(xp, disc, start))
        if xp is np:
            return np.bincount(gid, weights=contrib, minlength=self.n_groups)
        return xpx.sum_by_owner(xp, contrib, _runs_per_group(xp, gid, self.n_groups))

    def _ideal_runs(self):
        xp = self.xp
        if self.rows is None:  # one relevant item (grade 1) first, then zeros
            gid = xpx.arange(xp, self.n_groups, self.device)
            ones = xp.ones(self.n_groups, dtype=xp.int64, **self.on_device)
            return (gid, xp.zeros_like(ones), ones,
                    xp.ones(self.n_groups, dtype=xp.float64, **self.on_device))
        return self.rows.ideal_runs()


def _runs_per_group(xp, gid, n_groups):
    """Number of runs of each group (``gid`` non-decreasing)."""
    first = xp.searchsorted(gid, xpx.arange(xp, n_groups, xpx.device_of(gid)))
    return xpx.diff_append(xp, first, gid.shape[0])


def _gain_values(gain, grades, xp=np):
    """``gain`` ("linear", "exponential" or a callable) of the grades, float64."""
    grades = astype(xp, grades, xp.float64)
    if gain == "linear":
        return grades
    if gain == "exponential":
        return (np.exp2(grades) if xp is np else 2.0 ** grades) - 1.0
    return gain(grades)


def ideal_runs(xp, grades, gstarts):
    """The ideal ordering of each group: runs of equal grade, best first.

    ``grades`` are the rows' grades, grouped (the rows of group ``i`` start at
    ``gstarts[i]``; any order within a group).  Returns ``(group, start,
    size, grade)`` of every run: its group, the number of the group's items
    ranked above it, its number of items and its grade (float64).  Integer
    grades up to :data:`MAX_COUNTED_GRADE` are counted per group (NumPy: one
    ``bincount``; other namespaces: one sort of int64 keys packing (group,
    grade)); others are sorted within their groups.
    """
    n = grades.shape[0]
    n_groups = gstarts.shape[0]
    if n == 0:
        empty = xp.zeros(0, dtype=xp.int64, **({} if xp is np else
                                                {"device": xpx.device_of(grades)}))
        return empty, empty, empty, astype(xp, empty, xp.float64)
    top = float(xp.max(grades))
    integral = xpx.is_integral(xp, grades) or bool(
        xp.all(xp.floor(grades) == grades))
    if integral and top <= MAX_COUNTED_GRADE and xp is np:
        # the rows of positive grade are counted (grade 0 takes the rest)
        span = int(top) + 1
        graded = np.flatnonzero(grades)
        owner = np.searchsorted(gstarts, graded, side="right") - 1
        counts = np.bincount(owner * span + grades[graded].astype(np.int64),
                             minlength=n_groups * span).reshape(n_groups, span)
        counts[:, 0] = np.diff(gstarts, append=n) - counts[:, 1:].sum(axis=1)
        counts = counts[:, ::-1]
        start = np.cumsum(counts, axis=1) - counts
        values = np.arange(span - 1, -1, -1, dtype=np.float64)
        keep = counts > 0
        return (np.nonzero(keep)[0], start[keep], counts[keep],
                np.broadcast_to(values, counts.shape)[keep])
    row_group = xpx.repeat_index(xp, xpx.diff_append(xp, gstarts, n))
    if integral and top <= MAX_COUNTED_GRADE:
        span = int(top) + 1
        # one sort of (group, descending grade) keys; runs of equal keys
        key = xp.sort(row_group * span + (span - 1 - astype(xp, grades, xp.int64)))
        first = flatnonzero(xp, xpx.starts(xp, key))
        size = xpx.diff_append(xp, first, n)
        key = take(xp, key, first)
        gid = key // span
        start = first - take(xp, gstarts, gid)
        return gid, start, size, astype(xp, (span - 1) - key % span, xp.float64)
    # fractional or large grades: sorted within groups, one run per row
    by_grade = xpx.argsort(xp, grades, descending=True)
    order = take(xp, by_grade, xpx.argsort(xp, take(xp, row_group, by_grade)))
    start = xpx.arange(xp, n, xpx.device_of(grades)) - take(xp, gstarts, row_group)
    ones = xp.ones_like(start)
    return row_group, start, ones, astype(xp, take(xp, grades, order), xp.float64)


def discounts(n_items, k=None, log_base=2, *, xp=np, device=None):
    """DCG discounts ``1/log_b(rank + 1)`` of ranks 1..n_items, 0 beyond ``k``.

    Written as :func:`sklearn.metrics.ndcg_score` writes it, so values agree.
    """
    if xp is np:
        discount = 1 / (np.log(np.arange(n_items) + 2) / np.log(log_base))
        if k is not None:
            discount[k:] = 0.0
        return discount
    rank = xp.arange(n_items, dtype=xp.float64, device=device)
    discount = 1 / (xp.log(rank + 2) / math.log(log_base))
    if k is not None:
        discount = xp.where(rank < k, discount, xp.zeros_like(discount))
    return discount


def discount_cumsum(n_items, k=None, log_base=2, *, xp=np, device=None):
    """``D[p]`` = sum of the discounts of ranks 1..p, with ``D[0] = 0``."""
    d = discounts(n_items, k, log_base, xp=xp, device=device)
    if xp is np:
        out = np.zeros(n_items + 1)
        np.cumsum(d, out=out[1:])
        return out
    return xpx.concat(xp, [xp.zeros(1, dtype=xp.float64, device=device),
                           xp.cumulative_sum(d)])
