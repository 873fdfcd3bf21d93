"""The rows of every group, unranked: the canonical form of the metrics that
need no order (the CTR metrics)."""

from typing import NamedTuple

import numpy as np

from .._core import to_numpy
from ._group_ids import encode_rows

__all__ = ["GroupedRows", "grouped_rows"]


class GroupedRows(NamedTuple):
    """The rows of every group, unsorted: what the CTR kernels read.

    ``group`` is each row's group index (0 .. n_groups-1, the order of
    ``labels``: the sorted unique ids, or the row number of a 2-D input);
    ``weight`` is each row's weight inside its group (None: unweighted);
    in the 2-D layout a weight is one query's (``per_query_weights``): the
    rows are unweighted and ``query_weight`` weighs each group in every
    average, as the engine does.
    """

    labels: np.ndarray
    group: np.ndarray
    y_true: np.ndarray
    y_score: np.ndarray
    weight: object
    per_query_weights: bool
    query_weight: object = None
    #: values shared by the kernels of one call (the cross-entropy)
    cache: dict = None

    @property
    def n_groups(self):
        return self.labels.shape[0]

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



def grouped_rows(layout, y_true, y_score, groups, w):
    """:class:`GroupedRows` of checked inputs (``_engine.check_inputs``)."""
    if layout == "multiclass":
        raise ValueError(
            "y_score: the CTR metrics (log loss, normalized entropy, PCOC, ECE, "
            "xAUC) take one probability per item, not multiclass scores; pass "
            "the positive class's column with 1-D y_true.")
    y_true, y_score = to_numpy(y_true), to_numpy(y_score)
    w = None if w is None else to_numpy(w).astype(np.float64)
    if layout == "2d":
        n_queries, n_items = y_score.shape
        group = np.repeat(np.arange(n_queries), n_items)
        labels = np.arange(n_queries)
        return GroupedRows(labels, group, y_true.ravel(), y_score.ravel(), None,
                           True, w, {})
    if groups is None:
        group, labels = np.zeros(y_score.shape[0], dtype=np.int64), np.array([0])
    else:
        group, labels = encode_rows(groups, y_score.shape[0])
    return GroupedRows(labels, group, y_true, y_score, w, False, None, {})
