"""The generic ranker: the long layout in any Array API namespace.

Built from the namespace's own sorts, so that it runs where the data lives
(a GPU included).  On NumPy the compiled pass (:mod:`._compiled`) is used
instead; the tests run every metric through this one on NumPy too
(``ENGINE_PATH = "generic"``).
"""

import math

import numpy as np

from .._core import flatnonzero, take, xpx
from ._ranked import RankedGroups, SortedRows
from ._rows import UnrankedRows
from ._ties import block_starts

__all__ = ["rank_generic"]


def rank_generic(y_true, y_score, groups, w, *, xp, device, relabel=None,
                 query_weights=None, merge=False, probabilities=None):
    """:class:`RankedGroups` of the long layout, with the namespace's sorts.

    Rows already grouped (ids non-decreasing: sorted logs, run files, 2-D
    input) of few distinct group sizes are sorted within their groups only:
    one batched row sort per size (:class:`~.._array_api.SegmentPlan`).
    Otherwise rows are sorted by score, descending, then (stably) by group
    id, so that tied rows keep their input order.  ``groups`` are integer ids
    in the namespace (None: one ranking); ``relabel`` maps the sorted ids to
    labels; ``merge``: see :func:`from_rows`.  Its unranked view
    (:class:`~._rows.UnrankedRows`) holds the rows in this order, grouped;
    its ``probabilities`` are ``probabilities`` (else the scores).
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
    if relabel is not None:
        labels = relabel(labels)
    score_sorted = take(xp, y_score, perm)
    bstarts = flatnonzero(xp, block_starts(score_sorted, gbrk, xp))
    grades = take(xp, y_true, perm)
    weights = None if w is None else take(xp, w, perm)
    rg = from_rows(xp, device, grades, weights, bstarts, gbrk, gstarts, labels,
                   _retrieved(xp, take(xp, score_sorted, bstarts)),
                   query_weights=query_weights, merge=merge)
    rg.unranked = UnrankedRows(
        xp, device, rg.group_size, None,
        lambda: (grades, score_sorted, score_sorted if probabilities is None
                 else take(xp, probabilities, perm), weights))
    rg.set_rank_order(lambda: perm, {"y_true": y_true, "y_score": y_score,
                                     "sample_weight": w})
    return rg


def from_rows(xp, device, grades, weights, bstarts, gbrk, gstarts, labels,
              block_retrieved, *, query_weights=None, merge=False):
    """:class:`RankedGroups` of rows in rank order.

    ``grades`` and ``weights`` are the rows' ``y_true`` and ``sample_weight``
    in rank order; ``bstarts``, ``gstarts`` the rows that start a tie block
    (None: every row, then ``block_retrieved`` is per row), a group, and
    ``gbrk`` the mask of the group starts.  With ``merge``,
    consecutive retrieved blocks of one group without a relevant item become
    one block: no metric of the registry tells them apart (their items carry
    grade 0, so the same gain each, and none of them is relevant), and every
    kernel then runs over about twice as many blocks as relevant ones.
    """
    n = grades.shape[0]
    block_n_rel = None
    if bstarts is None and merge and xp is np and n > 1:
        # every row its own block (no tie): merged from the rows themselves
        has = grades > 0
        keep = has | gbrk
        keep[1:] |= has[:-1]
        keep[1:] |= block_retrieved[1:] != block_retrieved[:-1]
        bstarts = np.flatnonzero(keep)
        block_n_rel = has[bstarts].astype(np.int64)
        block_retrieved = block_retrieved[bstarts]
        merge = False
    elif bstarts is None:  # every row its own block
        bstarts = xpx.arange(xp, n, device)
    if block_n_rel is None:
        # (on the blocks before merging)
        block_n_rel = SortedRows(xp, grades, None, bstarts, gstarts).block_sums(
            grades > 0, xp.int64)
    untied = bstarts.shape[0] == n  # every row its own block: no gather
    group_start = gbrk if untied else take(xp, gbrk, bstarts)
    if merge and bstarts.shape[0] > 1:
        has = block_n_rel > 0
        flips = block_retrieved[1:] != block_retrieved[:-1]
        if xp is np:
            keep = has | group_start
            keep[1:] |= has[:-1]
            keep[1:] |= flips
        else:  # (no in-place update: JAX arrays are immutable)
            keep = (has | group_start
                    | xpx.concat(xp, [group_start[:1], has[:-1] | flips]))
        kept = flatnonzero(xp, keep)
        if kept.shape[0] < bstarts.shape[0]:
            bstarts = take(xp, bstarts, kept)
            block_n_rel = take(xp, block_n_rel, kept)
            block_retrieved = take(xp, block_retrieved, kept)
            group_start = take(xp, group_start, kept)
    rows = SortedRows(xp, grades, weights, bstarts, gstarts)
    group_first_block = flatnonzero(xp, group_start)
    n_blocks = bstarts.shape[0]
    blocks_per_group = xpx.diff_append(xp, group_first_block, n_blocks)
    if xp is np:
        block_start = bstarts - np.repeat(gstarts, blocks_per_group)
    else:
        block_start = bstarts - take(xp, gstarts,
                                     xpx.repeat_index(xp, blocks_per_group))
    return RankedGroups(
        xp=xp, device=device, labels=labels,
        group_size=xpx.diff_append(xp, gstarts, n),
        group_first_block=group_first_block,
        block_start=block_start,
        block_size=xpx.diff_append(xp, bstarts, n),
        block_n_rel=block_n_rel,
        block_retrieved=block_retrieved,
        rows=rows, query_weights=query_weights)


def _retrieved(xp, scores):
    """``scores > -inf`` (every integer score is retrieved)."""
    if xp is not np and not xp.isdtype(scores.dtype, "real floating"):
        return scores == scores
    return scores > -math.inf


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
