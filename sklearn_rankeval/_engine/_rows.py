"""The second view of a ranked input: the rows of its groups, unranked.

Every ranker that builds a :class:`~._ranked.RankedGroups` from rows gives
it this view as well (:attr:`RankedGroups.unranked`), from the same pass and
the same encoding of the groups: the same groups in the same order, the rows
of each together.  The metrics that need no order (the CTR metrics: log
loss, normalized entropy, PCOC, ECE, xAUC) read it; the compiled pass
computes their statistics in the same per-group pass as the ranked ones
(:meth:`UnrankedRows.native_stat`), and the rows themselves are gathered
only when a kernel reads them.

* the compiled pass (NumPy): the rows of each group in input order (its
  counting sort, :func:`~._compiled.rank_compiled`);
* the generic ranker (any Array API namespace): the rows of each group in
  the ranker's order (the namespace's arrays, on their device).
"""

import numpy as np

from .._core import xpx

__all__ = ["UnrankedRows", "check_unranked_layout"]


class UnrankedRows:
    """The rows of every group of a ranked input, in no particular order
    within a group: what the CTR kernels read.

    ``group`` is each row's group index (0 .. n_groups-1, the order of the
    ranked input's ``labels``); ``y_true``, ``y_score`` (the scores as
    given), ``probabilities`` (the scores the probability metrics read: the
    recalibrated ones with ``negative_sampling_rate``, else the scores) and
    ``weight`` (each row's weight, None: unweighted, or a 2-D input, whose
    weights are the queries') the rows, grouped.

    Parameters
    ----------
    xp, device
        The namespace and device of the rows.
    group_size : array of shape (n_groups,)
        The rows of each group (the ranked input's ``group_size``).
    native : Natives or None
        The compiled pass's statistics (:mod:`._native`).
    arrays : callable
        ``arrays() -> (y_true, y_score, probabilities, weight)``, the rows
        grouped (computed on first use).
    in_rank_order : callable or None
        ``in_rank_order() -> (y_true, y_score, weight)``: the rows of each
        group in the ranker's order (score descending); None: ``arrays``
        gives them in that order already.
    """

    def __init__(self, xp, device, group_size, native, arrays,
                 in_rank_order=None):
        self.xp = xp
        self.device = device
        self.group_size = group_size
        self.n_groups = group_size.shape[0]
        self.native = native
        #: values shared by the kernels of one call (the cross-entropy)
        self.cache = {}
        self._arrays = arrays
        self._in_rank_order = in_rank_order
        self._rows = None

    def cached(self, key, fn):
        """``fn()``, computed once per view and ``key``."""
        if key not in self.cache:
            self.cache[key] = fn()
        return self.cache[key]

    def native_stat(self, stat):
        """The compiled pass's statistics of ``stat`` (see
        :meth:`~._ranked.RankedGroups.native_stat`), or None."""
        return None if self.native is None else self.native.get(self, stat)

    def _grouped(self):
        if self._rows is None:
            self._rows = tuple(self._arrays())
            self._arrays = None
        return self._rows

    @property
    def y_true(self):
        return self._grouped()[0]

    @property
    def y_score(self):
        return self._grouped()[1]

    @property
    def probabilities(self):
        return self._grouped()[2]

    @property
    def weight(self):
        return self._grouped()[3]

    def in_rank_order(self):
        """``(y_true, y_score, weight)`` of the rows of each group in the
        engine's rank order (score descending; tied rows in the ranker's
        order): what an order-reading kernel of the rows reads (xAUC), not
        sorting them itself."""
        if self._in_rank_order is None:
            return self.y_true, self.y_score, self.weight
        return self.cached("in_rank_order", self._in_rank_order)

    @property
    def group(self):
        """Each row's group index."""
        return self.cached("group", lambda: xpx.repeat_index(self.xp,
                                                             self.group_size))

    @property
    def group_starts(self):
        """The offset of each group's first row."""
        return self.cached("group_starts", lambda: xpx.cumsum(
            self.xp, self.group_size) - self.group_size)

    def group_sum(self, values):
        """Per-group sums of per-row ``values`` (float64)."""
        xp = self.xp
        if xp is np:
            if self.n_groups == 1:  # one group: a (pairwise) sum
                return np.array([np.sum(values, dtype=np.float64)])
            return np.bincount(self.group, weights=values,
                               minlength=self.n_groups).astype(np.float64,
                                                               copy=False)
        return self.group_reduce(values, "sum")

    def group_reduce(self, values, op):
        """``op`` (``"sum"``, ``"max"``) of per-row ``values`` over each
        group (float64; every group has rows)."""
        xp = self.xp
        if self.n_groups == 0:
            return xpx.zeros(xp, 0, self.device)
        values = xpx.astype(xp, values, xp.float64)
        return xpx.segment_reduce(xp, values, self.cached(
            "segments", lambda: xpx.segment_plan(xp, self.group_starts,
                                                 values.shape[0])), op)

    def weighted_sum(self, values=None):
        """Per-group sums of ``w * values`` (``values`` None: of ``w``)."""
        if values is None:
            values = self.xp.ones(self.group.shape[0], dtype=self.xp.float64,
                                  **({} if self.xp is np
                                     else {"device": self.device}))
        return self.group_sum(values if self.weight is None
                              else self.weight * values)


def check_unranked_layout(layout):
    """The CTR metrics take one probability per item: no multiclass scores."""
    if layout == "multiclass":
        raise ValueError(
            "y_score: the CTR metrics (log loss, normalized entropy, PCOC, ECE, "
            "xAUC) take one probability per item, not multiclass scores; pass "
            "the positive class's column with 1-D y_true.")
