"""Membership of each recommended row in its user's top-K list.

The one place where top-N lists are ordered: the tie blocks of each user's
list (:func:`tie_blocks`, for the membership at the cut and the peers' tie
checks), each row's probability of being in the top K (:func:`membership`:
a tie at the K-th place shares the free places), the position of a row
(:func:`row_rank`, :func:`list_rank`) and the score of each row in the long
layout that the accuracy metrics read (:func:`long_scores`).  Rows already
grouped by user in descending score order (as :func:`top_k_items` gives them)
are read in one pass, without a sort.
"""

import numpy as np

from .._engine import TieBlocks, grouped_descending
from .._engine import tie_blocks as engine_tie_blocks

__all__ = ["list_membership", "list_rank", "long_scores",
           "membership", "membership_from_rank", "row_rank", "tie_blocks"]


def _sort_by_user(user, score, grouped=None):
    """Permutation by (user ascending, score descending) and the sorted users.

    Rows already grouped by user in descending score order stay as they are
    (:func:`grouped_descending`).

    One ``argsort`` of the scores gives each row its descending position
    ``p``; the key ``user << shift | p`` is unique, so a plain ``np.sort`` of
    the keys orders the rows, and the row is recovered from ``p``.
    """
    n = user.shape[0]
    if grouped is None:
        grouped = grouped_descending(user, score) is not None
    if grouped:
        return np.arange(n), user
    shift = max(int(n - 1).bit_length(), 1)
    if int(user.max()) >= (1 << (62 - shift)):
        perm = np.lexsort((-score.astype(np.float64), user))
        return perm, user[perm]
    asc = np.argsort(score)
    key = user[asc].astype(np.int64)
    key <<= shift
    key |= np.arange(n - 1, -1, -1, dtype=np.int64)
    key.sort()
    perm = asc[(n - 1) - (key & ((1 << shift) - 1))]
    key >>= shift
    return perm, key


def _starts(flags):
    """Indices where ``flags`` is True, and for every row its segment start."""
    starts = np.flatnonzero(flags)
    seg = np.cumsum(flags) - 1
    return starts, starts[seg]


def membership(user, score, *, k):
    """Each row's probability of being in its user's top-``k`` list.

    Rows of a user are ranked by ``score`` (higher first).  A tie block
    starting at 0-based position ``p`` with ``t`` items gets ``clip((k - p) /
    t, 0, 1)``: 1 above the cut, the share of free places in the block tied
    at the K-th place, 0 below.  Items scored ``-inf`` are not recommended
    (0).  No Python loop: one sort of (user, -score), none for lists already
    in rank order.  ``user``: int64 codes; ``score``: checked float64 scores
    (:func:`~._inputs.read_inputs`).
    """
    n = user.shape[0]
    if n == 0:
        return np.zeros(0)
    perm, block, _, position, size, _ = tie_blocks(user, score)
    if block is None:  # no tie: each row its own block, in the input order
        out = (position < k).astype(np.float64)
        out[score == -np.inf] = 0.0
        return out
    m_block = np.clip((k - position) / size, 0.0, 1.0)
    m_block[score[perm[np.cumsum(size) - size]] == -np.inf] = 0.0
    out = np.empty(n)
    out[perm] = m_block[block]
    return out


def tie_blocks(user, score, no_tie_shortcut=True):
    """The tie blocks of each user's ranking: the engine's
    :class:`~sklearn_rankeval._engine.TieBlocks` (``perm``, ``block``,
    ``first``, ``start``, ``size``, ``group``).

    ``perm`` orders the rows by user, then score descending (rows already
    in that order stay: :func:`grouped_descending`); the blocks are the
    engine's one rule (:func:`~sklearn_rankeval._engine.tie_blocks`).  The
    rule of ties at a cut, for :func:`membership` and for the peers' tie
    checks.  Rows already in that order without any tie (no block of two
    rows) give ``perm = arange(n)``, ``start`` each row's rank within its
    user and the other fields None (``no_tie_shortcut=False`` always gives
    the blocks).
    """
    n = user.shape[0]
    grouped = grouped_descending(user, score)
    if grouped is not None and no_tie_shortcut:
        starts, step = grouped
        if not np.any((step == 0) & ~starts[1:]) and not np.any(
                np.isnan(step) & ~starts[1:]):
            _, user_start = _starts(starts)
            return TieBlocks(np.arange(n), None, None, np.arange(n) - user_start,
                             None, None)
    perm, _ = _sort_by_user(user, score, grouped is not None)
    return engine_tie_blocks(user, score, perm)


def row_rank(user):
    """0-based position of each row among its user's rows, in input order."""
    n = user.shape[0]
    order = np.argsort(user, kind="stable")
    u = user[order]
    new_user = np.ones(n, dtype=bool)
    new_user[1:] = u[1:] != u[:-1]
    _, start = _starts(new_user)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n) - start
    return rank


def membership_from_rank(user, *, k, rank=None):
    """Membership of lists given in order: 1 where ``rank < k``, else 0.

    ``rank``: each row's 0-based position in its user's list (None: the order
    of the user's rows in the input).
    """
    if rank is None:
        rank = row_rank(user)
    return (rank < k).astype(np.float64)


def list_membership(user, score, rank, k):
    """Each row's membership of its user's top-``k`` list, from the scores
    (ties at the cut shared) or the positions (``score`` None)."""
    if score is not None:
        return membership(user, score, k=k)
    return membership_from_rank(user, k=k, rank=rank)


def long_scores(user, score, rank):
    """The score of each recommended row in the long layout: minus its rank
    (lists given in order), or minus the dense rank of its score within its
    user when the lists are in rank order (the same order and ties as small
    integers, which the engine ranks without an argsort), else the score;
    ``-inf`` stays ``-inf`` (not retrieved)."""
    if score is None:
        return -(rank.astype(np.float64) + 1)
    grouped = grouped_descending(user, score)
    if grouped is None:
        return score
    starts, step = grouped
    new = starts.copy()
    new[1:] |= (step != 0) & ~np.isnan(step)  # -inf - -inf: NaN, a tie
    dense = np.cumsum(new)
    first = np.flatnonzero(starts)
    dense = dense - np.repeat(dense[first],
                              np.diff(np.append(first, user.shape[0])))
    return np.where(score == -np.inf, -np.inf, -(dense + 1.0))


def list_rank(user, score):
    """Each row's 0-based position in its user's list ordered by ``score``
    (distinct scores: a tie-free order)."""
    perm, block, _, start, _, _ = tie_blocks(user, score, no_tie_shortcut=False)
    rank = np.empty(user.shape[0], dtype=np.int64)
    rank[perm] = start[block]
    return rank
