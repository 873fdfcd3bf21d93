"""The rows of every group, unranked: the canonical form of the metrics that
need no order (the CTR metrics).

Built from the compiled pass's counting sort (:func:`~._compiled.compiled_rows`),
as the ranked form is: the per-group totals come from its counting pass, the
CTR statistics from its per-group pass (:meth:`GroupedRows.native_stat`),
and the rows themselves, grouped, only when a kernel reads them.
"""

import numpy as np

from .._core import get_config, is_foreign_array, to_numpy
from ._compiled import compiled_rows
from ._dispatch import compiled_path
from ._native import Natives

__all__ = ["GroupedRows", "grouped_rows"]


class GroupedRows:
    """The rows of every group, unsorted: what the CTR kernels read.

    ``group`` is each row's group index (0 .. n_groups-1, the order of
    ``labels``: the sorted unique ids, or the row number of a 2-D input) and
    ``y_true``, ``y_score``, ``weight`` the rows, grouped (input order within
    a group); ``weight`` is each row's weight inside its group (None:
    unweighted); in the 2-D layout a weight is one query's
    (``per_query_weights``): the rows are unweighted and ``query_weight``
    weighs each group in every average, as the engine does.  The per-group
    totals (``group_size``, ``group_n_rel``, ``group_weight``,
    ``query_weight``) are those of :class:`~._ranked.RankedGroups`, so that
    ``GroupInfo.from_ranked`` reads either.
    """

    xp = np
    device = None

    def __init__(self, totals, found, order, arrays):
        (self.labels, self.group_size, self.group_n_rel, self.group_weight,
         query_weight, _, query_weights) = totals
        self.per_query_weights = query_weights is not None
        self.query_weight = query_weights if self.per_query_weights else query_weight
        if self.per_query_weights:
            self.group_weight = query_weights * self.group_weight
        self.native = Natives(found)
        #: values shared by the kernels of one call (the cross-entropy)
        self.cache = {}
        self._order = order
        self._arrays = arrays
        self._rows = None

    @property
    def n_groups(self):
        return self.labels.shape[0]

    def cached(self, key, fn):
        """``fn()``, computed once per grouped input and ``key``."""
        if key not in self.cache:
            self.cache[key] = fn()
        return self.cache[key]

    def native_stat(self, name, options):
        """The compiled pass's statistics of ``name`` (see
        :meth:`~._ranked.RankedGroups.native_stat`), or None."""
        return self.native.get(self, name, options)

    def _grouped(self):
        if self._rows is None:
            order = self._order()
            y_true, y_score, w = self._arrays
            group = np.repeat(np.arange(self.n_groups), self.group_size)
            self._rows = (group, y_true[order], y_score[order],
                          None if w is None else w[order])
        return self._rows

    @property
    def group(self):
        return self._grouped()[0]

    @property
    def y_true(self):
        return self._grouped()[1]

    @property
    def y_score(self):
        return self._grouped()[2]

    @property
    def weight(self):
        return self._grouped()[3]

    def group_sum(self, values):
        """Per-group sums of per-row ``values`` (float64)."""
        if self.n_groups == 1:  # one group: a (pairwise) sum
            return np.array([np.sum(values, dtype=np.float64)])
        return np.bincount(self.group, weights=values,
                           minlength=self.n_groups).astype(np.float64, copy=False)

    def weighted_sum(self, values=None):
        """Per-group sums of ``w * values`` (``values`` None: of ``w``)."""
        if values is None:
            values = np.ones(self.group.shape[0])
        return self.group_sum(values if self.weight is None
                              else self.weight * values)


def check_unranked_layout(layout):
    """The CTR metrics take one probability per item: no multiclass scores."""
    if layout == "multiclass":
        raise ValueError(
            "y_score: the CTR metrics (log loss, normalized entropy, PCOC, ECE, "
            "xAUC) take one probability per item, not multiclass scores; pass "
            "the positive class's column with 1-D y_true.")


def grouped_rows(layout, y_true, y_score, groups, w, *, native=()):
    """:class:`GroupedRows` of checked inputs (``_engine.check_inputs``);
    ``native``: the CTR statistics to compute in the pass (``(name,
    options)`` pairs), unless :data:`~._dispatch.ENGINE_PATH` is
    ``"generic"`` (the tests' switch): the metrics' kernels then read the
    rows."""
    check_unranked_layout(layout)
    y_true, y_score = to_numpy(y_true), to_numpy(y_score)
    if not compiled_path(y_score):
        native = ()
    w = None if w is None else to_numpy(w).astype(np.float64)
    if groups is not None and is_foreign_array(groups):
        groups = to_numpy(groups)  # (an Array API array of integer ids)
    totals, found, order = compiled_rows(
        layout, y_true, y_score, groups, w, native=native,
        budget=get_config()["working_memory"] * float(1 << 20))
    if layout == "2d":
        arrays = (y_true.reshape(-1), y_score.reshape(-1), None)
    else:
        arrays = (y_true, y_score, w)
    return GroupedRows(totals, found, order, arrays)
