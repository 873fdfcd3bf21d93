"""The multiclass ranker: no sort, O(n_samples * n_classes) comparisons.

Each sample is a query whose only relevant item is its true class; only the
rank of that class matters: the classes scored above it and those tied with
it are counted in one compiled pass over the scores
(:func:`~._compiled.multiclass_counts`), where a sort of every score would
cost many times more (W3, 1M samples x 100 classes: ``benchmarks/README.md``).
"""

import numpy as np

from ._compiled import multiclass_counts, natives_of_blocks
from ._native import Natives
from ._ranked import RankedGroups

__all__ = ["rank_multiclass"]


def rank_multiclass(y_encoded, y_score, w, *, relabel=None):
    """:class:`~._ranked.RankedGroups` of multiclass input (NumPy).

    Only three blocks matter per query -- the classes scored above the true
    class, those tied with it (itself included) and those below -- so no sort
    is needed.  (Merging non-relevant items of different scores into one block
    changes no metric: they carry no gain and are all above or all below every
    relevant item: the blocks are merged as ``rank(merge=True)`` merges them.)
    """
    n, n_classes = y_score.shape
    y_encoded = np.asarray(y_encoded, dtype=np.int64)
    true_score = y_score[np.arange(n), y_encoded][:, None]
    n_above, n_tied = multiclass_counts(y_encoded, y_score)
    sizes = np.stack([n_above, n_tied, n_classes - n_above - n_tied], axis=1)
    starts = np.stack([np.zeros(n, dtype=np.int64), n_above, n_above + n_tied], axis=1)
    n_rel = np.zeros((n, 3), dtype=np.int64)
    n_rel[:, 1] = 1
    retrieved = np.ones((n, 3), dtype=bool)
    retrieved[:, 1] = true_score[:, 0] > -np.inf
    keep = (sizes > 0).ravel()
    block_size = sizes.ravel()[keep].astype(np.int64)
    # every query has its tied block (the true class), so none is empty
    group_first_block = np.cumsum(keep.reshape(n, 3).sum(axis=1)) - keep.reshape(
        n, 3).sum(axis=1)
    labels = np.arange(n)
    return RankedGroups(
        xp=np, device=None,
        labels=labels if relabel is None else relabel(labels),
        group_size=np.full(n, n_classes, dtype=np.int64),
        group_first_block=group_first_block,
        block_start=starts.ravel()[keep].astype(np.int64),
        block_size=block_size,
        block_n_rel=n_rel.ravel()[keep],
        block_retrieved=retrieved.ravel()[keep],
        rows=None, query_weights=w, native=Natives({}, natives_of_blocks),
    )
