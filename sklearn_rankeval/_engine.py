"""The ranking engine shared by every grouped metric.

Any of the four input layouts (grouped rows with ``groups``, one row per query,
multiclass probabilities, one ranking) is turned into one canonical form,
:class:`RankedGroups`: the *tie blocks* of every group, in rank order.  A tie
block is a maximal run of items of one group with equal scores; the metrics are
computed from block-level counts only (items ranked above the block, block size,
relevant items in it, their gain and weights), which is what makes every value
independent of the order of the input rows.

The long layout costs one ``np.argsort`` of the scores and one ``np.sort`` of
an ``int64`` key that packs (group code, descending score position); after that
everything is segment arithmetic (``np.add.reduceat``, cumulative sums,
``np.searchsorted``) over groups or blocks, with no Python loop over groups or
rows.  The multiclass layout needs no sort at all: only the rank of the true
class matters, which comparisons give in O(n_samples * n_classes).
"""

import math

import numpy as np

from . import _array_api as xpx
from ._array_api import astype, flatnonzero, get_namespace, take
from ._validation import (
    validate_relevance,
    validate_sample_weight,
    validate_scores,
)

__all__ = [
    "RankedGroups",
    "check_inputs",
    "discount_cumsum",
    "discounts",
    "rank_checked",
    "rank_groups",
]


class RankedGroups:
    """Tie blocks of every group, in rank order (the engine's canonical form).

    Blocks are stored group after group, and within a group from the highest
    score to the lowest.  Items with score ``-inf`` (not retrieved) form the
    last block of their group, flagged by ``block_retrieved = False``.

    Attributes
    ----------
    n_groups : int
    labels : ndarray of shape (n_groups,)
        Group ids in output order (sorted unique ids; row index in the 2-D and
        multiclass layouts).
    group_size : ndarray of shape (n_groups,), int64
    group_weight : ndarray of shape (n_groups,), float64
        Sum of the sample weights of the group's rows (its size if unweighted).
    query_weight : ndarray of shape (n_groups,) or None
        The weight of the group's first row; None when unweighted.
    item_weighted : bool
        Whether the blocks carry float item weights (``block_w_pos``,
        ``block_w_neg``).  Within each group they are the rows' weights divided
        by the group's largest weight, so that every per-group value is
        computed on the same scale whatever the other groups hold, and a
        weight constant within a group is exactly 1 (the unweighted counts).
    per_query_weights : bool
        Whether ``sample_weight`` gave one weight per query (2-D and
        multiclass layouts): then it weights the query in every average.
    block_group, block_start, block_size, block_n_rel : ndarray of shape (n_blocks,)
        Group of the block, number of items of the group ranked strictly above
        it, its number of items, and its number of relevant (``y_true > 0``)
        items.
    block_gain : ndarray of shape (n_blocks,), float64
        Sum of ``y_true`` over the block.
    block_w_pos, block_w_neg : ndarray of shape (n_blocks,)
        Sample weight of the relevant / non-relevant items of the block (the
        counts, as int64, when unweighted).
    block_retrieved : ndarray of shape (n_blocks,), bool
    block_exp2_gain : ndarray of shape (n_blocks,), float64
        Sum of ``2**y_true - 1`` over the block (the exponential gain);
        computed on first use.
    row_relevance : ndarray of shape (n_rows,) or None
        ``y_true`` of every row in rank order: the rows of each block one
        after another, blocks in their order (so block ``b`` holds rows
        ``cumsum(block_size)[b] - block_size[b]`` onwards, in no particular
        order within it).  None where the layout keeps no rows (multiclass).
    """

    def __init__(
        self,
        *,
        labels,
        group_size,
        group_weight,
        query_weight,
        block_group,
        block_start,
        block_size,
        block_n_rel,
        block_gain,
        block_w_pos,
        block_w_neg,
        block_retrieved,
        ideal_gains,
        weight_spread=None,
        group_first_block=None,
        per_query_weights=False,
        block_exp2_gain=None,
        block_map=None,
        max_grade=None,
        xp=np,
        device=None,
        row_segments=None,
        grade_counts=None,
        row_relevance=None,
    ):
        self.xp = xp
        self.device = device
        #: ``device=`` keyword for array creation (none for NumPy 1.x)
        self.on_device = {} if xp is np else {"device": device}
        self.labels = labels
        self.n_groups = labels.shape[0]
        self.group_size = group_size
        self.group_weight = group_weight
        self.query_weight = query_weight
        self._block_group = block_group
        self.block_start = block_start
        self.block_size = block_size
        self.block_n_rel = block_n_rel
        self.block_w_pos = block_w_pos
        self.block_retrieved = block_retrieved
        # these two may be given as callables, computed on first use only
        self._block_gain = block_gain
        self._block_w_neg = block_w_neg
        self._block_exp2_gain = block_exp2_gain
        # block_map(f): sum over each block of f(y_true) (any gain function)
        self._block_map = block_map
        self.item_weighted = query_weight is not None
        self.per_query_weights = per_query_weights
        self._ideal_gains = ideal_gains
        self._weight_spread = weight_spread
        self._max_grade = max_grade
        self._row_segments = row_segments
        self._grade_counts = grade_counts
        self.row_relevance = row_relevance
        if group_first_block is None:
            group_first_block = flatnonzero(xp, xpx.starts(xp, block_group))
        self.group_first_block = group_first_block
        self._cache = {}

    @property
    def block_group(self):
        """Group of each block (built on first use from the group offsets)."""
        if self._block_group is None:
            self._block_group = xpx.repeat_index(self.xp, self.blocks_per_group)
        return self._block_group

    @property
    def segments(self):
        """The groups as segments of the blocks (offsets for NumPy, else a
        :class:`~._array_api.SegmentPlan` built once)."""
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
        if callable(self._block_gain):
            self._block_gain = self._block_gain()
        return self._block_gain

    @property
    def block_exp2_gain(self):
        if self._block_exp2_gain is None:  # binary relevance: 2**1 - 1 = 1
            self._block_exp2_gain = astype(self.xp, self.block_n_rel, self.xp.float64)
        elif callable(self._block_exp2_gain):
            self._block_exp2_gain = self._block_exp2_gain()
        return self._block_exp2_gain

    def block_gain_of(self, gain):
        """Sum over each block of ``gain(y_true)``.

        ``gain`` is ``"linear"`` (:attr:`block_gain`), ``"exponential"``
        (:attr:`block_exp2_gain`) or an elementwise callable of the relevance
        (computed once per gain).
        """
        if gain == "linear":
            return self.block_gain
        if gain == "exponential":
            return self.block_exp2_gain
        if self._block_map is None:
            raise ValueError("this input layout supports only the linear and "
                             "exponential gains.")
        return self._cached(("block_gain_of", gain), lambda: self._block_map(gain))

    @property
    def relevant_grades(self):
        """``y_true`` of the relevant items (``y_true > 0``), float64, block
        after block: block ``b``'s start at ``cumsum(block_n_rel)[b] -
        block_n_rel[b]`` (in no particular order within it).  Layouts that
        keep no rows (multiclass) have grade 1 for every relevant item."""
        def compute():
            xp = self.xp
            if self.row_relevance is None:
                return xpx.full(xp, int(xp.sum(self.block_n_rel)), 1.0, self.device)
            rel = self.row_relevance
            return astype(xp, take(xp, rel, flatnonzero(xp, rel > 0)), xp.float64)
        return self._cached("relevant_grades", compute)

    @property
    def max_grade(self):
        """The largest ``y_true`` of each group, shape (n_groups,)."""
        if self._max_grade is not None:
            return self._cached("max_grade", self._max_grade)

        def compute():
            gid, _, _, gain = self._ideal_gains()
            out = np.zeros(self.n_groups)
            gid, gain = np.broadcast_arrays(gid, gain)
            np.maximum.at(out, gid, gain)
            return out
        return self._cached("max_grade", compute)

    @property
    def block_w_neg(self):
        if callable(self._block_w_neg):
            self._block_w_neg = self._block_w_neg()
        return self._block_w_neg

    # -- segment arithmetic over the blocks of each group -------------------
    def group_sum(self, x):
        """Sum of a block-level array within each group, shape (n_groups,)."""
        return xpx.segment_reduce(self.xp, x, self.segments, "sum")

    def group_cumsum(self, x):
        """Inclusive cumulative sum of a block-level array within each group.

        Integers: one cumulative sum over all blocks, differenced at the group
        offsets (exact).  Floats: summed within each group only, left to right
        (:func:`~._array_api.segment_cumsum`), so that no other group's values enter a
        group's sums through rounding.
        """
        xp = self.xp
        if xp is np and x.dtype.kind in "iub":
            cs = np.cumsum(x, dtype=np.int64)
            first = self.group_first_block
            before = cs[first] - x[first]
            cs -= np.repeat(before, np.diff(first, append=len(x)))
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
    def cached(self, key, fn):
        """``fn()``, computed once per ranked input and ``key``."""
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    _cached = cached

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
        if self._weight_spread is not None and self._weight_spread():
            raise ValueError(
                f"sample_weight must be constant within each group for "
                f"{func_name}: its definition has no item weights, so the weight "
                f"of a group's rows is the weight of that query."
            )

    def ideal_dcg(self, k=None, gain="linear"):
        """DCG of the ideal ordering of all items (retrieved or not), truncated at k.

        The ideal ordering sorts the items by grade; ``gain`` (as in
        :meth:`block_gain_of`) maps each grade to its gain.
        """
        xp = self.xp
        if (xp is not np and self._grade_counts is not None
                and (gain in ("linear", "exponential")
                     or getattr(gain, "kind", None) in ("binary", "table"))):
            # (a callable gain sees the rows' own grades, in their namespace)
            counted = self._grade_counts()
            if counted is not None:
                return _ideal_dcg_by_counts(xp, *counted, k, gain,
                                            self.max_group_size, self.device)
        gid, start, size, gain_of = self._ideal_gains()
        if xp is not np:  # rows sorted by group: one row per (group, rank)
            gain_of = astype(xp, gain_of, xp.float64)
            if gain == "exponential":
                gain_of = 2.0 ** gain_of - 1.0
            elif gain != "linear":
                gain_of = gain(gain_of)
            disc = discount_cumsum(self.max_group_size, k, xp=xp, device=self.device)
            contrib = gain_of * (take(xp, disc, start + size) - take(xp, disc, start))
            return xpx.segment_reduce(xp, contrib, self._row_segments())
        if gain == "exponential":
            gain = np.exp2(np.asarray(gain_of, dtype=np.float64)) - 1.0
        elif gain == "linear":
            gain = gain_of
        else:
            gain = gain(np.broadcast_to(np.asarray(gain_of, dtype=np.float64),
                                        np.shape(gid)))
        disc = discount_cumsum(self.max_group_size, k)
        contrib = np.broadcast_to(gain * (disc[start + size] - disc[start]), gid.shape)
        return np.bincount(gid, weights=contrib, minlength=self.n_groups)


def _ideal_dcg_by_counts(xp, grades, count_of, k, gain, max_size, device):
    """Ideal DCG from the number of items of each grade in each group.

    The ideal ordering puts a group's items of grade ``v`` (best first) at
    ranks ``start + 1 .. start + count``: their DCG is ``gain(v)`` times the
    discounts of those ranks; no sort.
    """
    disc = discount_cumsum(max_size, k, xp=xp, device=device)
    start = total = None
    for v in grades:  # decreasing, a few
        count = count_of(v)
        if start is None:
            start = xp.zeros_like(count)
            total = xp.zeros(count.shape[0], dtype=xp.float64, device=device)
        if gain == "linear":
            g = float(v)
        elif gain == "exponential":
            g = 2.0 ** v - 1.0
        else:  # a Gain of one grade: a host scalar
            g = float(np.asarray(gain(np.asarray([float(v)])))[0])
        if g != 0.0:
            total = total + g * (take(xp, disc, start + count) - take(xp, disc, start))
        start = start + count
    return total


#: Integer grades up to this value are counted per group for the ideal DCG
#: (one pass per grade) rather than sorted.
_MAX_COUNTED_GRADE = 16


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


# ---------------------------------------------------------------------------
# group ids -> integer codes
# ---------------------------------------------------------------------------
def _is_missing(values):
    """Elementwise missing-value test for an object array (None or NaN)."""
    with np.errstate(invalid="ignore"):
        nan = values != values  # noqa: PLR0124  (NaN is not equal to itself)
    return np.asarray(nan, dtype=bool) | np.equal(values, None)


def _check_length(shape, n):
    if len(shape) != 1 or shape[0] != n:
        raise ValueError(
            f"groups must be 1-D with one id per row of y_score ({n}), "
            f"got shape {tuple(shape)}."
        )


def _sorted_codes(uniques):
    """Rank of each unique id in sorted order, and the ids in that order."""
    uniques = np.asarray(uniques)
    keys = uniques
    if uniques.dtype == object and len(uniques) > 1000:
        # Python str objects sort several times faster as a fixed-width array
        from pandas.api.types import infer_dtype

        if infer_dtype(uniques, skipna=False) == "string":
            keys = uniques.astype(str)
    try:
        order = np.argsort(keys, kind="stable")
    except TypeError as exc:
        raise TypeError(f"groups ids must be mutually comparable: {exc}") from None
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank, uniques[order]


def _from_codes(codes, uniques):
    """Codes into ``uniques`` (any order) -> codes in sorted id order, decoder."""
    rank, sorted_ids = _sorted_codes(uniques)
    return rank[codes], lambda c: sorted_ids[c]


def _encode_categorical(categorical, n):
    codes = np.asarray(categorical.codes)
    _check_length(codes.shape, n)
    if (codes < 0).any():
        raise ValueError("groups contains missing values (NaN/None).")
    return _from_codes(codes.astype(np.int64), np.asarray(categorical.categories))


def _encode_arrow(groups, n):
    """A pyarrow Array or ChunkedArray: dictionary-encoded (hashing) in Arrow."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(groups, pa.ChunkedArray):
        groups = groups.combine_chunks()
    _check_length((len(groups),), n)
    if groups.null_count:
        raise ValueError("groups contains missing values (null).")
    if pa.types.is_integer(groups.type) or pa.types.is_floating(groups.type):
        return None, groups.to_numpy(zero_copy_only=False)
    if not pa.types.is_dictionary(groups.type):
        groups = pc.dictionary_encode(groups)
    codes = groups.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    return _from_codes(codes, groups.dictionary.to_numpy(zero_copy_only=False)), None


def _factorize(g, n):
    """Non-integer ids -> sorted codes: pandas' hash factorization when present.

    Only the unique ids are sorted, so strings cost one hash pass instead of
    the full sort of ``np.unique`` (15-35x faster on object strings).
    """
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is optional
        pd = None
    if pd is not None:
        codes, uniques = pd.factorize(g, sort=False)
        if (codes < 0).any():
            raise ValueError("groups contains missing values (NaN/None).")
        return _from_codes(np.asarray(codes, dtype=np.int64), np.asarray(uniques))
    try:
        uniq, inv = np.unique(g, return_inverse=True)
    except TypeError as exc:
        raise TypeError(f"groups ids must be mutually comparable: {exc}") from None
    return inv.reshape(-1).astype(np.int64), lambda c: uniq[c]


def group_ids_array(groups):
    """``groups`` as a NumPy array of ids (for callers that compare ids)."""
    module = type(groups).__module__.split(".")[0]
    if module == "pyarrow":
        groups = groups.to_numpy(zero_copy_only=False) if hasattr(
            groups, "null_count") else groups.to_numpy()
    elif module == "polars":
        groups = groups.to_numpy()
    elif hasattr(groups, "to_numpy") and not isinstance(groups, np.ndarray):
        groups = groups.to_numpy()
    return np.asarray(groups)


def check_group_ids(ids):
    """Missing or unsupported ids in a NumPy array of group ids are errors."""
    if ids.dtype.kind == "f" and np.isnan(ids).any():
        raise ValueError("groups contains missing values (NaN).")
    if ids.dtype.kind == "O" and _is_missing(ids).any():
        raise ValueError("groups contains missing values (NaN/None).")
    if ids.dtype.kind not in "biufOUSMm":
        raise TypeError(f"groups has an unsupported dtype {ids.dtype}.")


def _encode_groups(groups, n, shift):
    """Group ids -> (non-negative int64 codes, function mapping codes to ids).

    Codes follow the sorted order of the ids.  Integer ids with a range that
    fits in the sort key are used directly (offset by their minimum): no
    extra work.  A pandas Categorical uses its codes (categories sorted, not
    the rows).  Strings and other ids are factorized by hashing (pandas, or
    Arrow for pyarrow arrays; polars Series and Arrow-backed pandas strings
    included), and only the unique ids are sorted.
    """
    module = type(groups).__module__.split(".")[0]
    dtype = getattr(groups, "dtype", None)
    if module == "pandas" and str(dtype) == "category":
        return _encode_categorical(groups.cat if hasattr(groups, "cat") else groups, n)
    if type(groups).__name__ == "Categorical" and module == "pandas":
        return _encode_categorical(groups, n)
    if module == "pyarrow":
        encoded, values = _encode_arrow(groups, n)
        if encoded is not None:
            return encoded
        groups = values
    elif module == "polars":
        if str(dtype) in ("Categorical", "Enum") or "Categorical" in str(dtype):
            groups = groups.cast(str)
        if groups.null_count():
            raise ValueError("groups contains missing values (null).")
        groups = groups.to_numpy()
    elif module == "pandas" and dtype is not None and dtype.kind not in "iub f":
        # pandas strings (object, string[python], string[pyarrow]): factorize
        # the Series itself (Arrow-backed strings are hashed in Arrow)
        _check_length((len(groups),), n)
        if groups.isna().any():
            raise ValueError("groups contains missing values (NaN/None).")
        import pandas as pd

        codes, uniques = pd.factorize(groups, sort=False)
        return _from_codes(np.asarray(codes, dtype=np.int64), np.asarray(uniques))
    if hasattr(groups, "to_numpy") and not isinstance(groups, np.ndarray):
        groups = groups.to_numpy()
    g = np.asarray(groups)
    _check_length(g.shape, n)
    if g.dtype.kind == "b":
        g = g.astype(np.int64)
    if g.dtype.kind in "iu":
        lo, hi = int(g.min()), int(g.max())
        if hi - lo < (1 << (62 - shift)):
            codes = np.subtract(g, lo, dtype=np.int64)
            if g.dtype.kind == "u" or g.dtype.itemsize > 8:
                dtype = g.dtype
                return codes, lambda c: (c + lo).astype(dtype)
            return codes, lambda c: c + lo
    elif g.dtype.kind == "f":
        if np.isnan(g).any():
            raise ValueError("groups contains missing values (NaN).")
    elif g.dtype.kind == "O":
        try:
            import pandas  # noqa: F401  (factorize flags missing ids itself)
        except ImportError:  # pragma: no cover - pandas is optional
            if _is_missing(g).any():
                raise ValueError("groups contains missing values (NaN/None).") from None
        return _factorize(g, n)
    elif g.dtype.kind in "US":
        return _factorize(g, n)
    elif g.dtype.kind not in "Mm":
        raise TypeError(f"groups has an unsupported dtype {g.dtype}.")
    try:
        uniq, inv = np.unique(g, return_inverse=True)
    except TypeError as exc:
        raise TypeError(f"groups ids must be mutually comparable: {exc}") from None
    return inv.reshape(-1).astype(np.int64), lambda c: uniq[c]


def encode_rows(groups, n):
    """Each row's group index in the order of ``RankedGroups.labels``.

    Returns ``(index, labels)``; ``index`` is dense (0 .. n_groups-1).
    """
    shift = max(int(n - 1).bit_length(), 1)
    codes, decode = _encode_groups(groups, n, shift)
    uniq, index = np.unique(codes, return_inverse=True)
    return index.reshape(-1), decode(uniq)


# ---------------------------------------------------------------------------
# building the canonical form
# ---------------------------------------------------------------------------
def _group_order(codes, score, shift):
    """Permutation sorting rows by (code ascending, score descending).

    One ``argsort`` of the scores gives each row its descending score position
    ``p``; the key ``code << shift | p`` is unique, so a plain (SIMD) ``np.sort``
    of the keys orders the rows, and the row index is recovered from ``p``.
    Rows with equal scores of one group end up adjacent.
    """
    n = score.shape[0]
    asc = np.argsort(score)
    key = codes[asc]  # int64 copy
    key <<= shift
    key |= np.arange(n - 1, -1, -1, dtype=np.int64)
    key.sort()
    pos_desc = key & ((1 << shift) - 1)
    perm = asc[(n - 1) - pos_desc]
    key >>= shift
    return perm, key


def _block_layout(gbrk, bstarts, gstarts, n):
    """Group offsets in blocks, block sizes and block starts within the group.

    ``gbrk`` flags the rows that start a group, ``bstarts`` the rows that
    start a block (every group start is one) and ``gstarts`` the group starts.
    """
    group_first_block = np.flatnonzero(gbrk[bstarts])
    block_size = np.diff(bstarts, append=n)
    block_start = bstarts - np.repeat(
        gstarts, np.diff(group_first_block, append=len(bstarts)))
    return group_first_block, block_size, block_start


def _block_sums(x, bstarts, dtype, xp=np, plan=None):
    """Sum of ``x`` over each block; the rows themselves when there is no tie.

    ``plan``: a callable giving the blocks' segment plan (generic path).
    """
    if bstarts.shape[0] == x.shape[0]:
        return astype(xp, x, dtype)
    if xp is np:
        return np.add.reduceat(x, bstarts, dtype=dtype)
    return astype(xp, xpx.segment_reduce(xp, x, plan(), "sum"), dtype)


def _ideal_by_counts(gid, grades, n_groups, n_grades):
    """Ideal ordering from the count of each grade in each group: no sort.

    Returns one (group, start, size, gain) block per grade present in a group,
    best grade first.
    """
    counts = np.bincount(gid * n_grades + grades, minlength=n_groups * n_grades)
    counts = counts.reshape(n_groups, n_grades)[:, ::-1]
    start = np.cumsum(counts, axis=1) - counts
    values = np.arange(n_grades - 1, -1, -1, dtype=np.float64)
    keep = counts > 0
    return (np.nonzero(keep)[0], start[keep], counts[keep],
            np.broadcast_to(values, counts.shape)[keep])


def _ideal_from_rows(goffsets, rel_sorted):
    """Ideal-ordering callable for rows grouped contiguously (any order within).

    Small integer grades are counted; other gains are sorted within groups.
    """
    n = rel_sorted.shape[0]
    gstarts = goffsets[:-1]

    def ideal_gains():
        gid = np.repeat(np.arange(len(gstarts)), np.diff(goffsets))
        bits = _small_grades(rel_sorted)
        if bits is not None:
            return _ideal_by_counts(gid, rel_sorted.astype(np.int64), len(gstarts),
                                    1 << bits)
        shift = max(int(n - 1).bit_length(), 1)
        order, _ = _group_order(gid, rel_sorted, shift)
        pos = np.arange(n) - gstarts[gid]
        return gid, pos, 1, rel_sorted[order].astype(np.float64)

    return ideal_gains


def _retrieved(xp, scores):
    """``scores > -inf`` (every integer score is retrieved)."""
    if xp is not np and not xp.isdtype(scores.dtype, "real floating"):
        return scores == scores
    return scores > -math.inf


def _from_sorted(goffsets, score_sorted, rel_sorted, w_sorted, labels, ideal_gains,
                 *, xp=np, gbrk=None, device=None):
    """Tie blocks from rows already ordered by (group, score descending).

    Groups are given by their row offsets ``goffsets`` (NumPy callers) or by
    ``gbrk``, the mask of the rows that start a group.
    """
    n = score_sorted.shape[0]
    if gbrk is None:
        gstarts = goffsets[:-1]
        gbrk = np.zeros(n, dtype=bool)
        gbrk[gstarts] = True
    else:
        gstarts = flatnonzero(xp, gbrk)
    brk = xpx.starts(xp, score_sorted) | gbrk
    bstarts = flatnonzero(xp, brk)
    del brk
    # segment plans of the blocks and of the groups over the rows (generic
    # path), built on first use and shared by every sum over them
    plans = {}

    def block_plan():
        if "blocks" not in plans:
            plans["blocks"] = xpx.segment_plan(xp, bstarts, n)
        return plans["blocks"]

    def group_rows():
        if "groups" not in plans:
            plans["groups"] = xpx.segment_plan(xp, gstarts, n)
        return plans["groups"]

    group_first_block = flatnonzero(xp, take(xp, gbrk, bstarts))
    n_blocks = bstarts.shape[0]
    block_size = xpx.diff_append(xp, bstarts, n)
    block_group = xpx.repeat_index(
        xp, xpx.diff_append(xp, group_first_block, n_blocks))
    block_start = bstarts - take(xp, gstarts, block_group)
    is_rel = rel_sorted > 0
    block_n_rel = _block_sums(is_rel, bstarts, xp.int64, xp, block_plan)
    block_gain = _block_sums(rel_sorted, bstarts, xp.float64, xp, block_plan)
    block_retrieved = _retrieved(xp, take(xp, score_sorted, bstarts))
    group_size = xpx.diff_append(xp, gstarts, n)

    def max_grade():
        return xpx.segment_reduce(xp, astype(xp, rel_sorted, xp.float64),
                                  group_rows(), "max")

    if w_sorted is None:
        block_w_pos = block_n_rel
        block_w_neg = lambda: block_size - block_n_rel  # noqa: E731
        group_weight = astype(xp, group_size, xp.float64)
        query_weight = None
        weight_spread = None
    else:
        # item weights on the group's own scale: divided by its largest weight
        w_max = xpx.segment_reduce(xp, w_sorted, group_rows(), "max")
        w_max = xp.where(w_max == 0, xp.ones_like(w_max), w_max)
        if xp is np:
            w_item = w_sorted / np.repeat(w_max, group_size)
        else:
            w_item = w_sorted / take(xp, w_max, xpx.repeat_index(xp, group_size))
        zero = xp.zeros_like(w_item)
        block_w_pos = _block_sums(xp.where(is_rel, w_item, zero), bstarts,
                                  xp.float64, xp, block_plan)
        block_w_neg = _block_sums(xp.where(is_rel, zero, w_item), bstarts,
                                  xp.float64, xp, block_plan)
        del w_item, zero
        group_weight = xpx.segment_reduce(xp, w_sorted, group_rows(), "sum")
        query_weight = take(xp, w_sorted, gstarts)

        def weight_spread():
            lo = xpx.segment_reduce(xp, w_sorted, group_rows(), "min")
            hi = xpx.segment_reduce(xp, w_sorted, group_rows(), "max")
            return bool(xp.any(lo != hi))

    def block_exp2_gain():
        gain = astype(xp, rel_sorted, xp.float64)
        gain = np.exp2(gain) if xp is np else 2.0 ** gain
        return _block_sums(gain - 1.0, bstarts, xp.float64, xp, block_plan)

    return RankedGroups(
        labels=labels,
        group_size=group_size,
        group_weight=group_weight,
        query_weight=query_weight,
        block_group=block_group,
        group_first_block=group_first_block,
        block_start=block_start,
        block_size=block_size,
        block_n_rel=block_n_rel,
        block_gain=block_gain,
        block_w_pos=block_w_pos,
        block_w_neg=block_w_neg,
        block_retrieved=block_retrieved,
        ideal_gains=ideal_gains,
        weight_spread=weight_spread,
        block_exp2_gain=block_exp2_gain,
        block_map=lambda f: _block_sums(f(rel_sorted), bstarts, xp.float64, xp,
                                        block_plan),
        # (NumPy: from the grade counts of the ideal ordering, cheaper)
        max_grade=None if xp is np else max_grade,
        row_relevance=rel_sorted,
        xp=xp,
        device=device,
        row_segments=None if xp is np else group_rows,
    )


def _rank_generic(y_true, y_score, groups, w, *, xp, device, decode=None):
    """The long layout in any Array API namespace: sorts of the namespace.

    Rows already grouped (ids non-decreasing: sorted logs, run files, 2-D
    input) of few distinct group sizes are sorted within their groups only:
    one batched row sort per size (:class:`~._array_api.SegmentPlan`).
    Otherwise rows are sorted by score, descending, then (stably) by group
    id, so that tied rows keep their input order.  ``groups`` are integer ids
    in the namespace (None: one ranking); ``decode`` maps the sorted ids to
    labels (NumPy codes).
    """
    n = y_score.shape[0]
    if groups is None:
        groups = xp.zeros(n, dtype=xp.int64, **({} if xp is np else
                                                 {"device": device}))
    perm = None
    if n > 1 and bool(xp.all(groups[1:] >= groups[:-1])):
        g_sorted = groups
        gbrk = xpx.starts(xp, g_sorted)
        plan = xpx.SegmentPlan(xp, flatnonzero(xp, gbrk), n)
        if all(bucket[4] for bucket in plan.buckets):  # few distinct sizes
            perm = plan.by_item([_sort_rows(xp, y_score, plan, bucket)
                                 for bucket in plan.buckets])
    if perm is None:
        order = xpx.argsort(xp, y_score, descending=True)
        g_by_score = take(xp, groups, order)
        by_group = xpx.argsort(xp, g_by_score)
        perm = take(xp, order, by_group)
        g_sorted = take(xp, g_by_score, by_group)
        del g_by_score, by_group, order
        gbrk = xpx.starts(xp, g_sorted)
    gstarts = flatnonzero(xp, gbrk)
    labels = take(xp, g_sorted, gstarts)
    if decode is not None:
        labels = decode(labels)
    rel_sorted = take(xp, y_true, perm)
    row_group = xpx.cumsum(xp, astype(xp, gbrk, xp.int64)) - 1

    def ideal_gains():
        pos = xpx.arange(xp, n, device) - take(xp, gstarts, row_group)
        return row_group, pos, 1, _grades_by_group(xp, rel_sorted, row_group)

    rg = _from_sorted(None, take(xp, y_score, perm), rel_sorted,
                      None if w is None else take(xp, w, perm), labels,
                      ideal_gains, xp=xp, gbrk=gbrk, device=device)
    if xp is not np:
        rg._grade_counts = lambda: _grade_counts(xp, rel_sorted, rg._row_segments)
    return rg


def _grade_counts(xp, rel_sorted, row_segments):
    """``(grades, count_of)`` for small integer grades (None otherwise):
    the grades from the largest down to 0, and the number of items of a grade
    in each group (a segment sum of one comparison per grade)."""
    top = float(xp.max(rel_sorted))
    if top > _MAX_COUNTED_GRADE or not (xpx.is_integral(xp, rel_sorted) or bool(
            xp.all(xp.floor(rel_sorted) == rel_sorted))):
        return None
    segments = row_segments()

    def count_of(v):
        return xpx.segment_reduce(xp, astype(xp, rel_sorted == v, xp.int64),
                                  segments, "sum")

    return list(range(int(top), -1, -1)), count_of


def _sort_rows(xp, y_score, plan, bucket):
    """Row indices of one bucket of equal-size groups, each sorted by score
    (descending, ties in input order): one batched sort."""
    if plan.dense:
        width = bucket[1]
        order = xpx.argsort(xp, xp.reshape(y_score, (-1, width)), descending=True,
                            axis=1)
        base = xp.reshape(xp.arange(0, plan.n, width, dtype=xp.int64,
                                    **({} if xp is np else {"device": plan.device})),
                          (-1, 1))
        return xp.reshape(order + base, (-1,))
    idx = plan._index(bucket)
    scores = xp.reshape(take(xp, y_score, xp.reshape(idx, (-1,))), idx.shape)
    order = xpx.argsort(xp, scores, descending=True, axis=1)
    return xp.reshape(xp.take_along_axis(idx, order, axis=1), (-1,))


def _grades_by_group(xp, rel_sorted, row_group):
    """The grades of each group in decreasing order (rows grouped): one sort
    of int64 keys packing (group, grade) for small integer grades, else two
    stable sorts."""
    n = rel_sorted.shape[0]
    top = float(xp.max(rel_sorted)) if n else 0.0
    integral = xpx.is_integral(xp, rel_sorted) or bool(
        xp.all(xp.floor(rel_sorted) == rel_sorted))
    n_groups = int(row_group[-1]) + 1 if n else 0
    span = int(top) + 1
    if integral and top <= _MAX_PACKED_GRADE and n_groups * span < (1 << 62):
        key = row_group * span + (span - 1 - astype(xp, rel_sorted, xp.int64))
        key = xp.sort(key)
        return astype(xp, (span - 1) - key % span, xp.float64)
    by_grade = xpx.argsort(xp, rel_sorted, descending=True)
    order = take(xp, by_grade, xpx.argsort(xp, take(xp, row_group, by_grade)))
    return astype(xp, take(xp, rel_sorted, order), xp.float64)


#: How the long layout is ranked: "auto" picks "contiguous" when the rows
#: already come grouped (ids non-decreasing, few distinct group sizes), else
#: "packed" for unweighted small integer grades, else "permutation".  Forcing a
#: path (the tests run each) falls back to "permutation" where it cannot apply.
ENGINE_PATH = "auto"
_MAX_PACKED_GRADE = 255
_MAX_SIZE_BUCKETS = 256


def _small_grades(y_true):
    """Number of bits of integer-valued relevance in [0, 255], else None."""
    if y_true.dtype.kind == "f":
        if not np.array_equal(y_true, np.floor(y_true)):
            return None
    hi = int(y_true.max())
    if hi > _MAX_PACKED_GRADE:
        return None
    return max(hi.bit_length(), 1)


def _rank_packed(y_true, y_score, holder, decode, rel_bits):
    """Unweighted long layout with small integer grades: no permutation at all.

    Each row becomes one int64 key ``group | descending dense score rank |
    grade``.  Sorting the keys (a SIMD ``np.sort``) orders the rows by group
    and score, and the keys themselves say where groups and tie blocks start
    and what each row's grade is, so no array is gathered through a
    permutation.  Returns None when the key does not fit in 63 bits.

    ``holder`` is a one-item list holding the group codes: once the key fits,
    the codes are taken out of it and turned into the key in place, so that
    no other reference keeps an array of the input's size alive.
    """
    codes = holder[0]
    n = y_score.shape[0]
    asc = np.argsort(y_score)
    s_sorted = np.sort(y_score)  # same values as y_score[asc], without a gather
    new = np.empty(n, dtype=bool)
    new[:1] = True
    np.not_equal(s_sorted[1:], s_sorted[:-1], out=new[1:])
    lowest_is_unretrieved = bool(s_sorted[0] == -np.inf)
    del s_sorted
    d_asc = np.cumsum(new, dtype=np.int64)
    del new
    n_distinct = int(d_asc[-1])
    d_asc -= n_distinct  # (ascending dense rank + 1) - D: in [1 - D, 0]
    np.negative(d_asc, out=d_asc)  # descending dense rank: in [0, D - 1]
    score_bits = max((n_distinct - 1).bit_length(), 1)
    group_bits = max(int(codes.max()).bit_length(), 1)
    if group_bits + score_bits + rel_bits > 63:
        return None
    rank_desc = np.empty(n, dtype=np.int64)
    rank_desc[asc] = d_asc
    del asc, d_asc
    holder.clear()
    key = codes  # the engine's own array: built in place, saving a copy
    del codes
    key <<= score_bits + rel_bits
    rank_desc <<= rel_bits
    key |= rank_desc
    del rank_desc
    # grades cast to int64 chunk by chunk (integer-valued floats included)
    np.bitwise_or(key, y_true, out=key, dtype=np.int64, casting="unsafe")
    key.sort()

    grade = (key & ((1 << rel_bits) - 1)).astype(np.uint8)
    key >>= rel_bits  # now (group, score rank): equal within a tie block
    brk = np.empty(n, dtype=bool)
    brk[:1] = True
    np.not_equal(key[1:], key[:-1], out=brk[1:])
    bstarts = np.flatnonzero(brk)
    del brk
    if lowest_is_unretrieved:  # the -inf block has the largest score rank
        block_retrieved = (key[bstarts] & ((1 << score_bits) - 1)) != n_distinct - 1
    else:
        block_retrieved = np.ones(len(bstarts), dtype=bool)
    key >>= score_bits  # now the group code
    gbrk = np.empty(n, dtype=bool)
    gbrk[:1] = True
    np.not_equal(key[1:], key[:-1], out=gbrk[1:])
    gstarts = np.flatnonzero(gbrk)
    labels = decode(key[gstarts])
    del key
    group_first_block, block_size, block_start = _block_layout(
        gbrk, bstarts, gstarts, n)
    del gbrk
    goffsets = np.append(gstarts, n)
    block_n_rel = _block_sums(grade > 0, bstarts, np.int64)
    if rel_bits == 1:  # binary relevance: the gain is the count

        def block_gain():
            return block_n_rel.astype(np.float64)
    else:
        block_gain = _block_sums(grade, bstarts, np.float64)
    group_size = np.diff(goffsets)
    # rows are grouped, so the ideal ordering counts the grades of each group
    ideal_gains = _ideal_from_rows(goffsets, grade)

    return RankedGroups(
        labels=labels,
        group_size=group_size,
        group_weight=group_size.astype(np.float64),
        query_weight=None,
        block_group=None,
        group_first_block=group_first_block,
        block_start=block_start,
        block_size=block_size,
        block_n_rel=block_n_rel,
        block_gain=block_gain,
        block_w_pos=block_n_rel,
        block_w_neg=lambda: block_size - block_n_rel,
        block_retrieved=block_retrieved,
        ideal_gains=ideal_gains,
        block_exp2_gain=None if rel_bits == 1 else (
            # (float64 first: exp2 of uint8 grades would be float16)
            lambda: _block_sums(np.exp2(grade.astype(np.float64)) - 1.0, bstarts,
                                np.float64)),
        block_map=lambda f: _block_sums(f(grade), bstarts, np.float64),
        row_relevance=grade,
    )


def _rank_long(y_true, y_score, groups, w):
    n = y_score.shape[0]
    shift = max(int(n - 1).bit_length(), 1)
    if groups is None:
        codes, decode = np.zeros(n, dtype=np.int64), lambda c: np.zeros(len(c), int)
    else:
        codes, decode = _encode_groups(groups, n, shift)
        if int(codes.max()) >= (1 << (62 - shift)):  # pragma: no cover - huge n
            uniq, codes = np.unique(codes, return_inverse=True)
            prev = decode
            decode = lambda c: prev(uniq[c])  # noqa: E731
    path = ENGINE_PATH
    if path == "generic":  # the Array API path, on NumPy arrays
        return _rank_generic(y_true, y_score, None if groups is None else codes, w,
                             xp=np, device=None,
                             decode=None if groups is None else decode)
    if path == "contiguous" and not _is_sorted(codes):
        # group the rows first (stable, so nothing depends on it), then rank
        order = np.argsort(codes, kind="stable")
        return _rank_contiguous(y_true[order], y_score[order], codes[order],
                                None if w is None else w[order], decode)
    if path in ("auto", "contiguous") and _is_sorted(codes):
        ranked = _rank_contiguous(y_true, y_score, codes, w, decode)
        if ranked is not None:
            return ranked
    if path in ("auto", "packed") and w is None:
        rel_bits = _small_grades(y_true)
        if rel_bits is not None:
            holder = [codes]
            del codes
            ranked = _rank_packed(y_true, y_score, holder, decode, rel_bits)
            if ranked is not None:
                return ranked
            codes = holder[0]
    perm, codes_sorted = _group_order(codes, y_score, shift)
    gbrk = np.empty(n, dtype=bool)
    gbrk[:1] = True
    np.not_equal(codes_sorted[1:], codes_sorted[:-1], out=gbrk[1:])
    gstarts = np.flatnonzero(gbrk)
    goffsets = np.append(gstarts, n)
    labels = decode(codes_sorted[gstarts])
    rel_sorted = y_true[perm]
    w_sorted = None if w is None else w[perm]
    return _from_sorted(goffsets, y_score[perm], rel_sorted, w_sorted, labels,
                        _ideal_from_rows(goffsets, rel_sorted))


def _is_sorted(codes):
    return bool((codes[1:] >= codes[:-1]).all())


def _rank_contiguous(y_true, y_score, codes, w, decode):
    """Rows already grouped (non-decreasing ids): sort within groups only.

    Groups of equal size form one ``(n_groups, size)`` matrix whose rows are
    argsorted at once; with several sizes, one such matrix per distinct size
    (a loop over distinct sizes, never over groups).  Returns None when there
    are too many distinct sizes for that to pay.
    """
    n = y_score.shape[0]
    gstarts = np.concatenate([[0], np.flatnonzero(codes[1:] != codes[:-1]) + 1])
    goffsets = np.append(gstarts, n)
    sizes = np.diff(goffsets)
    distinct = np.unique(sizes)
    if len(distinct) > _MAX_SIZE_BUCKETS:
        return None
    if len(distinct) == 1:
        size = int(distinct[0])
        order = np.argsort(y_score.reshape(-1, size), axis=1)[:, ::-1]
        order += gstarts[:, None]
        perm = order.reshape(-1)
    else:
        perm = np.empty(n, dtype=np.int64)
        for size in distinct.tolist():
            rows = gstarts[sizes == size][:, None] + np.arange(size)
            order = np.argsort(y_score[rows], axis=1)[:, ::-1]
            perm[rows] = np.take_along_axis(rows, order, axis=1)
    rel_sorted = y_true[perm]
    return _from_sorted(goffsets, y_score[perm], rel_sorted,
                        None if w is None else w[perm], decode(codes[gstarts]),
                        _ideal_from_rows(goffsets, rel_sorted))


def _rank_2d(y_true, y_score, w):
    n_queries, n_items = y_score.shape
    order = np.argsort(y_score, axis=1)[:, ::-1]
    score_sorted = np.take_along_axis(y_score, order, axis=1).ravel()
    rel_sorted = np.take_along_axis(y_true, order, axis=1).ravel()
    goffsets = np.arange(0, n_queries * n_items + 1, n_items)
    rg = _from_sorted(goffsets, score_sorted, rel_sorted, None,
                      np.arange(n_queries), _ideal_from_rows(goffsets, rel_sorted))
    return _with_query_weights(rg, w)


def _with_query_weights(rg, w):
    """One weight per query (2-D and multiclass layouts): it weights the query
    in every average, and a query's total weight is ``w * n_items``."""
    if w is None:
        return rg
    rg.query_weight = w
    rg.group_weight = w * astype(rg.xp, rg.group_size, rg.xp.float64)
    rg.per_query_weights = True
    return rg


def _rank_multiclass(y_encoded, y_score, w):
    """Each sample is a query whose only relevant item is its true class.

    Only three blocks matter per query -- the classes scored above the true
    class, those tied with it (itself included) and those below -- so no sort
    is needed.  (Merging non-relevant items of different scores into one block
    changes no metric: they carry no gain and are all above or all below every
    relevant item.)
    """
    n, n_classes = y_score.shape
    true_score = y_score[np.arange(n), y_encoded][:, None]
    # booleans summed as uint8 with a narrow accumulator: faster than
    # count_nonzero(axis=1) on short rows
    acc = np.uint16 if n_classes < (1 << 16) else np.int64
    n_above = (y_score > true_score).view(np.uint8).sum(axis=1, dtype=acc)
    n_tied = (y_score == true_score).view(np.uint8).sum(axis=1, dtype=acc)
    n_above, n_tied = n_above.astype(np.int64), n_tied.astype(np.int64)
    sizes = np.stack([n_above, n_tied, n_classes - n_above - n_tied], axis=1)
    starts = np.stack([np.zeros(n, dtype=np.int64), n_above, n_above + n_tied], axis=1)
    n_rel = np.zeros((n, 3), dtype=np.int64)
    n_rel[:, 1] = 1
    retrieved = np.ones((n, 3), dtype=bool)
    retrieved[:, 1] = true_score[:, 0] > -np.inf
    keep = (sizes > 0).ravel()
    block_group = np.repeat(np.arange(n), 3)[keep]
    block_size = sizes.ravel()[keep].astype(np.int64)
    block_n_rel = n_rel.ravel()[keep]
    group_size = np.full(n, n_classes, dtype=np.int64)

    def ideal_gains():
        return np.arange(n), 0, 1, 1.0

    rg = RankedGroups(
        labels=np.arange(n),
        group_size=group_size,
        group_weight=group_size.astype(np.float64),
        query_weight=None,
        block_group=block_group,
        block_start=starts.ravel()[keep].astype(np.int64),
        block_size=block_size,
        block_n_rel=block_n_rel,
        block_gain=block_n_rel.astype(np.float64),
        block_w_pos=block_n_rel,
        block_w_neg=block_size - block_n_rel,
        block_retrieved=retrieved.ravel()[keep],
        ideal_gains=ideal_gains,
    )
    return _with_query_weights(rg, w)


def _encode_classes(y_true, n_classes, labels):
    """Class labels -> column indices of y_score, as top_k_accuracy_score does."""
    if hasattr(y_true, "to_numpy") and not isinstance(y_true, np.ndarray):
        y_true = y_true.to_numpy()
    y = np.asarray(y_true)
    if y.ndim != 1:
        raise ValueError(f"y_true must be 1-D class labels, got shape {y.shape}.")
    if labels is None:
        classes = np.unique(y)
        if len(classes) != n_classes:
            raise ValueError(
                f"y_true has {len(classes)} distinct classes but y_score has "
                f"{n_classes} columns; pass labels= with one label per column "
                f"of y_score."
            )
        return np.searchsorted(classes, y)
    classes = np.asarray(labels)
    if classes.ndim != 1 or len(classes) != n_classes:
        raise ValueError(
            f"labels must list one class per column of y_score ({n_classes}), "
            f"got shape {classes.shape}."
        )
    order = np.argsort(classes, kind="stable")
    sorted_classes = classes[order]
    if (sorted_classes[1:] == sorted_classes[:-1]).any():
        raise ValueError("labels must be unique.")
    if (y.dtype.kind in "iu" and classes.dtype.kind in "iu"
            and np.array_equal(classes, np.arange(n_classes))):
        # labels 0..n_classes-1 in column order (estimator.classes_ of
        # integer-coded targets): the labels are the column indices
        if y.size and (y.min() < 0 or y.max() >= n_classes):
            raise ValueError("y_true contains labels that are not in labels.")
        return y
    idx = np.clip(np.searchsorted(sorted_classes, y), 0, n_classes - 1)
    if not (sorted_classes[idx] == y).all():
        raise ValueError("y_true contains labels that are not in labels.")
    return order[idx]


def rank_groups(y_true, y_score, *, groups=None, sample_weight=None, labels=None):
    """Validate the inputs of a ranking metric and build its :class:`RankedGroups`.

    The layout is read from the shapes: 1-D ``y_score`` is the long layout
    (one ranking when ``groups`` is None); 2-D ``y_score`` with 2-D ``y_true``
    is one row per query; 2-D ``y_score`` with 1-D ``y_true`` is multiclass.
    ``labels`` is only used by the multiclass layout.
    """
    return rank_checked(*check_inputs(y_true, y_score, groups=groups,
                                      sample_weight=sample_weight, labels=labels))


def rank_checked(layout, y_true, y_score, groups, w):
    """:class:`RankedGroups` of inputs checked by :func:`check_inputs`."""
    xp = xpx.namespace_of(y_score)
    if xp is not np:
        return _rank_array_api(layout, y_true, y_score, groups, w, xp=xp)
    if layout == "2d":
        return _rank_2d(y_true, y_score, w)
    if layout == "multiclass":
        return _rank_multiclass(y_true, y_score, w)
    return _rank_long(y_true, y_score, groups, w)


def _rank_array_api(layout, y_true, y_score, groups, w, *, xp):
    """Any layout in an Array API namespace, through the long layout.

    One query per row (2-D and multiclass input) becomes the long layout with
    the row index as group; ``sample_weight`` then weights the query.
    """
    device = xpx.device_of(y_score)
    if layout == "long":
        return _rank_generic(y_true, y_score, groups, w, xp=xp, device=device)
    n_queries, n_items = y_score.shape
    if layout == "multiclass":  # the true class is the one relevant item
        cols = xp.arange(n_items, dtype=xp.int64, device=device)
        y_true = xp.reshape(y_true, (-1, 1)) == xp.reshape(cols, (1, -1))
    rows = xp.arange(n_queries, dtype=xp.int64, device=device)
    rg = _rank_generic(
        xp.reshape(astype(xp, y_true, xp.float64), (-1,)), xp.reshape(y_score, (-1,)),
        xp.repeat(rows, n_items), None, xp=xp, device=device)
    return _with_query_weights(rg, w)


def _check_inputs_array_api(xp, device, y_true, y_score, groups, sample_weight,
                            labels):
    """:func:`check_inputs` for arrays of an Array API namespace (on ``device``).

    NumPy arrays and lists among the arguments are moved to that namespace
    and device; group ids must be integers (strings stay a host-side concern:
    factorize them there and pass the codes).
    """
    def move(x, name):
        """Host data (NumPy, lists, pandas) to the namespace and device."""
        if x is None or xpx._is_foreign_array(x):
            return x
        if hasattr(x, "to_numpy") and not isinstance(x, np.ndarray):
            x = x.to_numpy()
        x = np.asarray(x)
        if x.dtype.kind not in "biuf":
            raise TypeError(
                f"{name} holds values of dtype {x.dtype}; under "
                f"array_api_dispatch the arrays hold numbers (encode string "
                f"labels on the host, e.g. with sklearn.preprocessing."
                f"LabelEncoder, and pass the codes)."
            )
        return xpx.asarray(xp, x, device)

    y_score = validate_scores(move(y_score, "y_score"), xp=xp)
    if y_score.ndim == 2:
        if groups is not None:
            raise ValueError(
                "groups must be None when y_score is 2-D: each row of a 2-D "
                "y_score is already one query."
            )
        n_queries = y_score.shape[0]
        y_true = move(y_true, "y_true")
        if getattr(y_true, "ndim", None) == 1:
            layout = "multiclass"
            y_true = _encode_classes_array_api(xp, y_true, y_score.shape[1], labels,
                                               device)
        else:
            layout = "2d"
            y_true = validate_relevance(y_true, xp=xp)
            if y_true.shape != y_score.shape:
                raise ValueError(
                    f"y_true and y_score must have the same shape, got "
                    f"{tuple(y_true.shape)} and {tuple(y_score.shape)}."
                )
        w = validate_sample_weight(move(sample_weight, "sample_weight"), n_queries,
                                   "query (row)", xp=xp)
        return layout, y_true, y_score, None, w
    y_true = _check_long_y_true(validate_relevance(move(y_true, "y_true"), xp=xp),
                                y_score)
    n = y_score.shape[0]
    if groups is not None:
        if not xpx._is_foreign_array(groups):  # host ids: integers are moved
            ids = group_ids_array(groups)
            if ids.dtype.kind not in "iub":
                raise TypeError(
                    f"groups must hold integer ids under array_api_dispatch "
                    f"(got dtype {ids.dtype}): factorize other ids on the host "
                    f"(codes, ids = pandas.factorize(groups)) and pass the codes."
                )
            groups = xpx.asarray(xp, ids, device)
        if not xp.isdtype(groups.dtype, ("integral", "bool")):
            raise TypeError(
                f"groups must hold integer ids under array_api_dispatch (got "
                f"dtype {groups.dtype}): factorize other ids on the host "
                f"(codes, ids = pandas.factorize(groups)) and pass the codes."
            )
        unsigned = groups.dtype == xp.uint64
        _check_length(tuple(groups.shape), n)
        groups = astype(xp, groups, xp.int64)
        if unsigned and bool(xp.any(groups < 0)):  # wrapped around
            raise ValueError(
                "groups holds uint64 ids of 2**63 or more, which int64 cannot "
                "hold: factorize them on the host (codes, ids = "
                "pandas.factorize(groups)) and pass the codes."
            )
    w = validate_sample_weight(move(sample_weight, "sample_weight"), n, "row",
                               xp=xp)
    return "long", y_true, y_score, groups, w


def _encode_classes_array_api(xp, y, n_classes, labels, device):
    """Class labels -> column indices (multiclass layout), in the namespace.

    Numeric labels only (booleans read as 0/1): string classes are a host
    concern, as string group ids are.
    """
    if not xp.isdtype(y.dtype, ("integral", "real floating", "bool")):
        raise TypeError(
            f"y_true holds class labels of dtype {y.dtype}; under "
            f"array_api_dispatch they must be numbers: encode them on the host "
            f"(e.g. sklearn.preprocessing.LabelEncoder) and pass the codes."
        )
    if xp.isdtype(y.dtype, "bool"):
        y = astype(xp, y, xp.int64)
    if labels is not None:
        classes = np.asarray(labels)
        if classes.dtype.kind not in "biuf":
            raise TypeError(
                f"labels must be numbers under array_api_dispatch, got dtype "
                f"{classes.dtype}: encode the classes on the host and pass the "
                f"codes."
            )
        if classes.dtype.kind == "f" or xp.isdtype(y.dtype, "real floating"):
            y = astype(xp, y, xp.float64)
            labels = classes.astype(np.float64)
        else:
            labels = classes.astype(np.int64)
            y = astype(xp, y, xp.int64)
    if labels is None:
        classes = xp.unique_values(y)
        if classes.shape[0] != n_classes:
            raise ValueError(
                f"y_true has {classes.shape[0]} distinct classes but y_score has "
                f"{n_classes} columns; pass labels= with one label per column "
                f"of y_score."
            )
        return xp.searchsorted(classes, y)
    classes = xpx.asarray(xp, np.asarray(labels), device)
    if classes.ndim != 1 or classes.shape[0] != n_classes:
        raise ValueError(
            f"labels must list one class per column of y_score ({n_classes}), "
            f"got shape {tuple(classes.shape)}."
        )
    order = xp.argsort(classes, stable=True)
    sorted_classes = take(xp, classes, order)
    if bool(xp.any(sorted_classes[1:] == sorted_classes[:-1])):
        raise ValueError("labels must be unique.")
    idx = xp.clip(xp.searchsorted(sorted_classes, y), 0, n_classes - 1)
    if not bool(xp.all(take(xp, sorted_classes, idx) == y)):
        raise ValueError("y_true contains labels that are not in labels.")
    return take(xp, order, idx)


def check_inputs(y_true, y_score, *, groups=None, sample_weight=None, labels=None):
    """The checked arrays of :func:`rank_groups`, before any ranking.

    Returns ``(layout, y_true, y_score, groups, w)``: ``layout`` is ``"2d"``,
    ``"multiclass"`` (then ``y_true`` holds each sample's column index) or
    ``"long"``; ``w`` the checked sample weights (or None).  The arrays keep
    their dtypes (float32 scores, small integer grades), so that a caller can
    rank them piece by piece (:mod:`._chunked`).  Under
    ``array_api_dispatch``, arrays of another namespace stay in it
    (:func:`~._array_api.get_namespace`).
    """
    xp, device = get_namespace(y_score, y_true, groups, sample_weight)
    if xp is not np:
        return _check_inputs_array_api(xp, device, y_true, y_score, groups,
                                       sample_weight, labels)
    y_score = validate_scores(y_score)
    if y_score.ndim == 2:
        if groups is not None:
            raise ValueError(
                "groups must be None when y_score is 2-D: each row of a 2-D "
                "y_score is already one query."
            )
        n_queries = y_score.shape[0]
        y_true_arr = y_true
        if not hasattr(y_true, "ndim"):
            try:
                y_true_arr = np.asarray(y_true)
            except ValueError:
                raise ValueError("y_true could not be converted to an array.") from None
        if np.ndim(y_true_arr) == 2:
            y_true = validate_relevance(y_true)
            if y_true.shape != y_score.shape:
                raise ValueError(
                    f"y_true and y_score must have the same shape, got "
                    f"{y_true.shape} and {y_score.shape}."
                )
            w = validate_sample_weight(sample_weight, n_queries, "query (row)")
            return "2d", y_true, y_score, None, w
        if np.ndim(y_true_arr) != 1 or len(y_true_arr) != n_queries:
            raise ValueError(
                f"y_true must be 2-D of shape {y_score.shape} (one row per query) "
                f"or 1-D class labels of length {n_queries} (multiclass); got "
                f"shape {np.shape(y_true_arr)}."
            )
        y_encoded = _encode_classes(y_true_arr, y_score.shape[1], labels)
        w = validate_sample_weight(sample_weight, n_queries, "sample (query)")
        return "multiclass", y_encoded, y_score, None, w

    y_true = _check_long_y_true(validate_relevance(y_true), y_score)
    w = validate_sample_weight(sample_weight, y_score.shape[0], "row")
    return "long", y_true, y_score, groups, w


def _check_long_y_true(y_true, y_score):
    """``y_true`` of 1-D ``y_score``: 1-D, of the same length."""
    if y_true.ndim != 1:
        raise ValueError(
            f"y_true must be 1-D when y_score is 1-D, got shape "
            f"{tuple(y_true.shape)}."
        )
    if y_true.shape[0] != y_score.shape[0]:
        raise ValueError(
            f"y_true and y_score have inconsistent lengths: {y_true.shape[0]} "
            f"and {y_score.shape[0]}."
        )
    return y_true
