"""Beyond-accuracy metrics of top-N lists, as additive statistics.

The computational core of ``coverage@K``, ``gini@K``, ``entropy@K``,
``novelty@K``, ``arp@K``, ``long_tail@K`` and ``ild@K`` (API.md, "Top-N
recommendation lists"); ``recommendation_report`` is built on it.

Input: the long layout
----------------------
The recommended lists are flat arrays, one row per (user, item) pair:

- ``user``: integer codes ``0 .. n_users - 1``;
- ``item``: integer codes ``0 .. n_items - 1`` (a code ``>= n_items`` is a
  ``ValueError`` naming the argument); a (user, item) pair appears once;
- ``membership``: each row's probability of being in the user's top-K list
  ``L_u``: 1 for an item strictly above the cut, ``(free places) / (tie
  size)`` for an item of the tie block at the K-th place, 0 below.
  :func:`membership` computes it from scores (ties included),
  :func:`membership_from_rank` from positions in lists given in order.

Training interactions are ``train_user``, ``train_item`` codes; they give
each item's :class:`Popularity` (its number of training interactions and of
distinct training users).  ``item_features`` is a dense ``(n_items, d)``
array or a SciPy sparse matrix whose row ``i`` describes item ``i``.

Statistics contract (as ``_averages``)
--------------------------------------
Every metric is ``finalize`` of sums that add across chunks of users,
batches of ``top_k_items`` and Spark/Dask partitions:

1. :func:`partials` returns :class:`BeyondPartials`: per-item vectors (the
   expected count ``c_i = sum_u m_ui``, the number of users whose list surely
   holds ``i`` and ``sum log(1 - m_ui)`` over fractional memberships) and one
   column of per-user sums per user present in the chunk;
2. :func:`merge` adds the per-item vectors and concatenates the per-user
   columns (a user's rows must all be in one chunk, as for every grouped
   metric of the package: partitions are by user; a user found in two
   chunks is a ``ValueError`` in :func:`finalize`);
3. :func:`finalize` turns the sums into the metric values
   (:func:`per_user_values` into one value per user).

Ties at the K-th place
----------------------
The scores never break a tie, and neither does the row order: each metric is
its expected value over all orderings of the tied items (each user's tie
block ordered uniformly at random, users independently) wherever that
expectation is a function of the sums:

- ``novelty@K``, ``arp@K``, ``long_tail@K``: per user ``sum_i m_i x_i /
  sum_i m_i``.  ``sum_i m_i = |L_u| = min(K, number of items scored above
  -inf)`` under every ordering, so this is the exact expected per-user mean;
  the metric is the mean over users with a non-empty list.
- ``ild@K``: the exact expected sum of the pairwise cosines,
  ``E[sum_{i != j in L_u} cos_ij]``: a pair of two items of the tie block (size
  ``t``, ``f`` free places) is in ``L_u`` with probability ``f (f - 1) / (t (t -
  1))``, not ``m_i m_j``; divided by the fixed ``|L_u| (|L_u| - 1)``.
- ``coverage@K``: the expected number of covered items, ``sum_i (1 -
  prod_u (1 - m_ui))`` over ``n_items`` (users are independent).  Counting an
  item as covered when its expected count is above 0 would reward ties: a
  model scoring every item alike would cover the whole catalog with a single
  user.  The product is kept additive as the number of sure memberships
  (``m = 1``) and ``sum log(1 - m)`` over the others.
- ``gini@K``, ``entropy@K``: the formulas on the expected counts ``c_i``
  (the expected exposure of each item), as API.md defines ``c_i``; they are
  not the expected Gini / entropy of a random tie break.

Without ties every membership is 0 or 1 and all of this is the plain
definition.

References
----------
.. [1] G. Shani and A. Gunawardana, "Evaluating Recommendation Systems", in
   Recommender Systems Handbook, Springer, 2011 (coverage, novelty).
.. [2] S. Vargas and P. Castells, "Rank and relevance in novelty and
   diversity metrics for recommender systems", RecSys 2011 (novelty as
   ``-log2`` popularity, diversity).
.. [3] H. Abdollahpouri, R. Burke and B. Mobasher, "Managing Popularity Bias
   in Recommender Systems with Personalized Re-ranking", FLAIRS 2019 (ARP,
   APLT, the short head holding 80% of the interactions).
.. [4] C.-N. Ziegler, S. M. McNee, J. A. Konstan and G. Lausen, "Improving
   Recommendation Lists Through Topic Diversification", WWW 2005
   (intra-list diversity).
"""

import math
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._core import check_k, validate_scores, warn

__all__ = [
    "CATALOG",
    "METRICS",
    "NEEDS_POPULARITY",
    "BeyondPartials",
    "Popularity",
    "bootstrap",
    "catalog_values",
    "check_head_share",
    "finalize",
    "gini_index",
    "grouped_descending",
    "lorenz_curve",
    "membership",
    "membership_from_rank",
    "merge",
    "partials",
    "per_user_values",
    "popularity",
    "row_rank",
    "short_head",
    "tie_blocks",
    "user_metrics",
]

#: The metrics that are a function of the per-item sums only.
CATALOG = ("coverage", "gini", "entropy")
#: The metrics computed from the training popularity (they need ``train``).
NEEDS_POPULARITY = ("novelty", "arp", "long_tail")
#: Every beyond-accuracy metric (``ild`` needs item features).
METRICS = CATALOG + NEEDS_POPULARITY + ("ild",)

#: Per-user statistics, the rows of ``BeyondPartials.user_stats``.
USER_STATS = ("size", "novelty", "arp", "long_tail", "ild_pairs")

#: Relative slack of the short-head threshold (so that 0.3 x 10 is 3).
_HEAD_RTOL = 1e-12

#: Rows of feature sums formed at once in ild@K (bounds its memory).
_ILD_BLOCK = 1 << 22


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _codes(x, name, bound=None, bound_name=None):
    """A 1-D int64 array of codes ``>= 0`` (and ``< bound``); not modified."""
    if hasattr(x, "to_numpy") and not isinstance(x, np.ndarray):
        x = x.to_numpy()
    arr = np.asarray(x)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {arr.shape}.")
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must contain integer codes, got dtype {arr.dtype}.")
    lo, hi = arr.min(), arr.max()
    if lo < 0:
        raise ValueError(f"{name} contains a negative code ({lo}).")
    if bound is not None and hi >= bound:
        raise ValueError(
            f"{name} contains the code {hi}, outside 0 .. {bound_name} - 1 "
            f"= {bound - 1}."
        )
    return arr.astype(np.int64, copy=False)


def _same_length(**arrays):
    (first, a), *rest = arrays.items()
    for name, b in rest:
        if b.shape[0] != a.shape[0]:
            raise ValueError(
                f"{name} has {b.shape[0]} rows but {first} has {a.shape[0]}."
            )


def _check_n_items(n_items):
    if isinstance(n_items, (bool, np.bool_)) or not isinstance(n_items, Integral):
        raise TypeError(f"n_items must be a positive integer, got {n_items!r}.")
    if n_items < 1:
        raise ValueError(f"n_items must be a positive integer, got {n_items!r}.")
    return int(n_items)


def _check_membership(m, n):
    if hasattr(m, "to_numpy") and not isinstance(m, np.ndarray):
        m = m.to_numpy()
    m = np.asarray(m)
    if m.ndim != 1:
        raise ValueError(f"membership must be 1-D, got an array of shape {m.shape}.")
    if m.dtype.kind not in "biuf":
        raise TypeError(f"membership must contain numbers, got dtype {m.dtype}.")
    m = m.astype(np.float64, copy=False)
    _same_length(user=np.empty(n), membership=m)
    if m.size and not (np.all(m >= 0) and np.all(m <= 1)):  # NaN fails too
        raise ValueError("membership must hold probabilities in [0, 1].")
    return m


# ---------------------------------------------------------------------------
# membership in the top-K lists
# ---------------------------------------------------------------------------
def grouped_descending(user, score):
    """``(starts, step)`` if each user's rows are contiguous and their scores
    non-increasing (lists in rank order, as :func:`~._top_k.top_k_items`
    gives them), else None: one pass, no sort.  ``starts``: True at the first
    row of each user's run; ``step``: ``score[1:] - score[:-1]``."""
    n = user.shape[0]
    if n == 0:
        return None
    starts = np.empty(n, dtype=bool)
    starts[0] = True
    np.not_equal(user[1:], user[:-1], out=starts[1:])
    runs = user[starts]
    if int(runs.max()) < 4 * n:
        distinct = np.count_nonzero(np.bincount(runs))
    else:
        ordered = np.sort(runs)
        distinct = 1 + np.count_nonzero(ordered[1:] != ordered[:-1])
    if distinct != runs.shape[0]:
        return None  # a user's rows are not contiguous
    with np.errstate(invalid="ignore"):  # -inf - -inf: NaN, a tie
        step = score[1:] - score[:-1]
    if np.any((step > 0) & ~starts[1:]):
        return None  # a score above the previous one of the same user
    return starts, step


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


def _distinct_pairs(a, b):
    """Sorted distinct (a, b) pairs of two code arrays, as two arrays.

    A sort of packed keys (or ``np.lexsort``) and a comparison with the
    neighbour: NumPy 2's hash-based ``np.unique`` is many times slower on
    integers.
    """
    width = int(b.max()) + 1 if b.size else 1
    if a.size and int(a.max()) < np.iinfo(np.int64).max // width:
        key = np.sort(a * width + b)
        first = np.ones(key.shape[0], dtype=bool)
        np.not_equal(key[1:], key[:-1], out=first[1:])
        return key[first] // width, key[first] % width
    order = np.lexsort((b, a))
    a, b = a[order], b[order]
    first = np.ones(a.shape[0], dtype=bool)
    first[1:] = (a[1:] != a[:-1]) | (b[1:] != b[:-1])
    return a[first], b[first]


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
    (0).  No Python loop: one sort of (user, -score).

    Parameters
    ----------
    user : array-like of shape (n_rows,)
        User codes (integers >= 0).
    score : array-like of shape (n_rows,)
        Scores; NaN and +inf are errors.
    k : int
        List length.

    Returns
    -------
    membership : ndarray of shape (n_rows,), float64
        In the order of the input rows.
    """
    k = check_k(k, allow_none=False)
    user = _codes(user, "user")
    n = user.shape[0]
    if n == 0:
        return np.zeros(0)
    score = validate_scores(score, name="score")
    if score.ndim != 1:
        raise ValueError(f"score must be 1-D, got an array of shape {score.shape}.")
    _same_length(user=user, score=score)
    perm, block, position, size = tie_blocks(user, score)
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
    """The tie blocks of each user's ranking: ``(perm, block, start, size)``.

    ``perm`` orders the rows by user, then score descending (rows already
    in that order stay: :func:`grouped_descending`); ``block[j]`` is the block
    of sorted row ``j`` (equal user and score); ``start[b]`` the 0-based rank
    of block ``b``'s first row within its user and ``size[b]`` its number of
    rows.  The rule of ties at a cut, for :func:`membership` and for the
    peers' tie checks.  Rows already in that order without any tie (no
    block of two rows) give ``(arange(n), None, rank, None)``: each row's
    rank within its user, in the input order (``no_tie_shortcut=False``
    always gives the blocks).
    """
    n = user.shape[0]
    grouped = grouped_descending(user, score)
    if grouped is not None and no_tie_shortcut:
        starts, step = grouped
        if not np.any((step == 0) & ~starts[1:]) and not np.any(
                np.isnan(step) & ~starts[1:]):
            _, user_start = _starts(starts)
            return np.arange(n), None, np.arange(n) - user_start, None
    perm, u = _sort_by_user(user, score, grouped is not None)
    s = score[perm]
    new_user = np.empty(n, dtype=bool)
    new_user[:1] = True
    np.not_equal(u[1:], u[:-1], out=new_user[1:])
    new_block = new_user.copy()
    new_block[1:] |= s[1:] != s[:-1]
    _, user_start = _starts(new_user)
    bstarts = np.flatnonzero(new_block)
    size = np.diff(bstarts, append=n)
    return perm, np.cumsum(new_block) - 1, bstarts - user_start[bstarts], size


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

    Parameters
    ----------
    user : array-like of shape (n_rows,)
        User codes (integers >= 0).
    k : int
        List length.
    rank : array-like of shape (n_rows,), default=None
        0-based position of each row in its user's list (distinct within a
        user).  None: the order of the user's rows in the input.

    Returns
    -------
    membership : ndarray of shape (n_rows,), float64
    """
    k = check_k(k, allow_none=False)
    user = _codes(user, "user")
    n = user.shape[0]
    if rank is None:
        rank = row_rank(user)
    else:
        rank = _codes(rank, "rank")
        _same_length(user=user, rank=rank)
        if n:
            if _distinct_pairs(user, rank)[0].shape[0] != n:
                raise ValueError("rank repeats a position within a user.")
    return (rank < k).astype(np.float64)


# ---------------------------------------------------------------------------
# popularity in the training interactions
# ---------------------------------------------------------------------------
class Popularity(NamedTuple):
    """Popularity of every item in the training interactions.

    ``interactions[i]``: the number of training rows of item ``i``;
    ``users[i]``: its number of distinct training users; ``n_users``: the
    number of distinct training users.  All three add across chunks of the
    training rows split by user (:meth:`merge`).
    """

    interactions: np.ndarray
    users: np.ndarray
    n_users: int

    @staticmethod
    def merge(parts):
        """Sum of the popularity of disjoint sets of training users."""
        parts = list(parts)
        return Popularity(sum(p.interactions for p in parts),
                          sum(p.users for p in parts),
                          sum(p.n_users for p in parts))


def popularity(train_user, train_item, *, n_items):
    """The :class:`Popularity` of each of ``n_items`` items in the training rows.

    A repeated (user, item) row is one more interaction, not one more user.
    """
    n_items = _check_n_items(n_items)
    train_user = _codes(train_user, "train_user")
    train_item = _codes(train_item, "train_item", n_items, "n_items")
    _same_length(train_user=train_user, train_item=train_item)
    interactions = np.bincount(train_item, minlength=n_items)
    if train_user.size == 0:
        return Popularity(interactions, np.zeros(n_items, dtype=np.int64), 0)
    pair_user, pair_item = _distinct_pairs(train_user, train_item)
    users = np.bincount(pair_item, minlength=n_items)
    # the pairs are sorted by user: one more user at each change
    n_users = 1 + int(np.count_nonzero(pair_user[1:] != pair_user[:-1]))
    return Popularity(interactions, users, n_users)


def check_head_share(head_share):
    """``head_share`` if a real number in [0, 1], else a TypeError/ValueError."""
    if isinstance(head_share, (bool, np.bool_)) or not isinstance(head_share, Real):
        raise TypeError(
            f"head_share must be a real number in [0, 1], got {head_share!r}."
        )
    if not 0 <= head_share <= 1:
        raise ValueError(f"head_share must be in [0, 1], got {head_share!r}.")
    return head_share


def short_head(interactions, head_share=0.8):
    """Boolean mask of the short-head items (the rest is the long tail).

    The fewest most popular items that together hold at least ``head_share``
    of the training interactions (up to a relative ``1e-12``, so that 0.3 of
    10 is 3), plus every item with as many interactions as the last of them
    (Abdollahpouri et al. 2019).  ``head_share=0``, or no interaction at
    all, gives an empty head; items without interactions are never in it.
    """
    check_head_share(head_share)
    interactions = np.asarray(interactions)
    total = int(interactions.sum())
    need = float(head_share) * total * (1 - _HEAD_RTOL)
    if total == 0 or need <= 0:
        return np.zeros(interactions.shape[0], dtype=bool)
    ordered = np.sort(interactions)[::-1]
    n_head = int(np.searchsorted(np.cumsum(ordered), need, side="left")) + 1
    last = ordered[min(n_head, ordered.shape[0]) - 1]
    return (interactions >= last) & (interactions > 0)


# ---------------------------------------------------------------------------
# partial sums
# ---------------------------------------------------------------------------
class BeyondPartials(NamedTuple):
    """Additive statistics of the beyond-accuracy metrics.

    Attributes
    ----------
    item_count : ndarray of shape (n_items,), float64
        ``sum_u m_ui``: the expected number of lists holding item ``i``.
    item_sure : ndarray of shape (n_items,), float64
        The number of lists surely holding item ``i`` (``m_ui = 1``).
    item_log_miss : ndarray of shape (n_items,), float64
        ``sum_u log(1 - m_ui)`` over ``0 < m_ui < 1``.
    user : ndarray of shape (n_users_chunk,), int64
        The codes of the users with rows in the chunk.
    user_stats : ndarray of shape (5, n_users_chunk), float64
        Per user, the rows of ``USER_STATS``: ``sum m``, ``sum m * novelty``,
        ``sum m * popularity``, ``sum m * [tail item]``, and the expected sum
        of the cosines of the ordered pairs of ``L_u``; NaN rows where the
        chunk had no ``popularity`` (rows 1-3) or ``item_features`` (row 4).
    has_popularity, has_features : bool
        Whether ``popularity`` / ``item_features`` were given.
    """

    item_count: np.ndarray
    item_sure: np.ndarray
    item_log_miss: np.ndarray
    user: np.ndarray
    user_stats: np.ndarray
    has_popularity: bool = False
    has_features: bool = False


def _users_present(user):
    """(codes of the users with rows, each row's index among them)."""
    n = user.shape[0]
    if n == 0:
        return user, user
    top = int(user.max()) + 1
    if top <= 4 * n:
        present = np.bincount(user, minlength=top) > 0
        index = np.cumsum(present) - 1
        return np.flatnonzero(present), index[user]
    order = np.argsort(user)
    first = np.ones(n, dtype=bool)
    np.not_equal(user[order][1:], user[order][:-1], out=first[1:])
    index = np.empty(n, dtype=np.int64)
    index[order] = np.cumsum(first) - 1
    return user[order][first], index


def _normalized_rows(item_features, n_items):
    """Rows scaled to unit L2 norm (zero rows stay zero: cosine 0 with all)."""
    from scipy import sparse

    if sparse.issparse(item_features):
        f = sparse.csr_matrix(item_features, dtype=np.float64)
        norms = np.sqrt(np.asarray(f.multiply(f).sum(axis=1)).ravel())
    else:
        f = np.asarray(item_features, dtype=np.float64)
        if f.ndim != 2:
            raise ValueError(
                f"item_features must be 2-D (n_items, n_features), got shape {f.shape}."
            )
        norms = np.sqrt(np.einsum("ij,ij->i", f, f))
    if f.shape[0] != n_items:
        raise ValueError(
            f"item_features has {f.shape[0]} rows but n_items is {n_items}: "
            "row i must describe item i."
        )
    if not np.all(np.isfinite(norms)):
        raise ValueError("item_features contains NaN or infinity.")
    scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    if sparse.issparse(f):
        return sparse.diags(scale) @ f, (norms > 0).astype(np.float64)
    return f * scale[:, None], (norms > 0).astype(np.float64)


def _rowwise_dot(a, b):
    from scipy import sparse

    if sparse.issparse(a):
        return np.asarray(a.multiply(b).sum(axis=1)).ravel()
    return np.einsum("ij,ij->i", a, b)


def _ild_pair_sums(row_user, item, m, n_users, features, n_items):
    """``E[sum_{i != j in L_u} cos_ij]`` for every user, without a user loop.

    With ``S`` the sum of the unit rows of the sure items and ``T`` that of
    the fractional ones (one tie block: ``t`` items, ``f`` free places,
    ``m = f / t``)::

        E = |S|^2 - sum_sure |f|^2 + 2 m S.T + q (|T|^2 - sum_tied |f|^2)

    with ``q = f (f - 1) / (t (t - 1))`` the probability that two given tied
    items are both in the list.
    """
    from scipy import sparse

    unit, sq = _normalized_rows(features, n_items)
    sure = m == 1.0
    tied = (m > 0) & ~sure
    t = np.bincount(row_user[tied], minlength=n_users).astype(np.float64)
    f = np.bincount(row_user[tied], weights=m[tied], minlength=n_users)
    f_round = np.round(f)
    spread = np.bincount(row_user[tied], weights=m[tied] ** 2, minlength=n_users)
    if np.any(np.abs(f_round - f) > 1e-6) or np.any(
            np.abs(spread * t - f * f) > 1e-6 * np.maximum(t, 1) ** 2):
        raise ValueError(
            "membership: the fractional memberships of a user must form one tie "
            "block, each f / t for t tied items and f free places (as membership() "
            "returns them), and all the rows of a user must be in one chunk."
        )
    with np.errstate(invalid="ignore", divide="ignore"):
        m_tied = np.where(t > 0, f_round / t, 0.0)
        q = np.where(t > 1, f_round * (f_round - 1) / (t * (t - 1)), 0.0)
    sq_sure = np.bincount(row_user[sure], weights=sq[item[sure]], minlength=n_users)
    sq_tied = np.bincount(row_user[tied], weights=sq[item[tied]], minlength=n_users)
    d = unit.shape[1]
    a_sure = sparse.csr_matrix((np.ones(sure.sum()), (row_user[sure], item[sure])),
                               shape=(n_users, n_items))
    a_tied = sparse.csr_matrix((np.ones(tied.sum()), (row_user[tied], item[tied])),
                               shape=(n_users, n_items))
    out = np.empty(n_users)
    step = max(_ILD_BLOCK // max(d, 1), 1)
    for lo in range(0, n_users, step):  # blocks of users bound the memory
        hi = min(lo + step, n_users)
        s = a_sure[lo:hi] @ unit
        tt = a_tied[lo:hi] @ unit
        out[lo:hi] = (_rowwise_dot(s, s) + 2 * m_tied[lo:hi] * _rowwise_dot(s, tt)
                      + q[lo:hi] * (_rowwise_dot(tt, tt) - sq_tied[lo:hi]))
    return out - sq_sure


def partials(user, item, membership, *, n_items, popularity=None,
             item_features=None, head_share=0.8):
    """The :class:`BeyondPartials` of one chunk of complete user lists.

    Parameters
    ----------
    user, item : array-like of shape (n_rows,)
        User and item codes; ``item < n_items``.
    membership : array-like of shape (n_rows,)
        Probability of each row being in ``L_u`` (:func:`membership`).
    n_items : int
        Catalog size.
    popularity : Popularity, default=None
        Of the whole training set (``novelty@K``, ``arp@K``, ``long_tail@K``).
    item_features : ndarray or sparse matrix of shape (n_items, d), default=None
        For ``ild@K``.
    head_share : float, default=0.8
        Share of the training interactions held by the short head.

    Returns
    -------
    BeyondPartials
    """
    n_items = _check_n_items(n_items)
    user = _codes(user, "user")
    item = _codes(item, "item", n_items, "n_items")
    _same_length(user=user, item=item)
    m = _check_membership(membership, user.shape[0])
    users, row_user = _users_present(user)
    n_users = users.shape[0]

    item_count = np.bincount(item, weights=m, minlength=n_items)
    sure = m == 1.0
    item_sure = np.bincount(item[sure], minlength=n_items).astype(np.float64)
    tied = (m > 0) & ~sure
    item_log_miss = np.bincount(item[tied], weights=np.log1p(-m[tied]),
                                minlength=n_items)

    stats = np.full((len(USER_STATS), n_users), np.nan)
    stats[0] = np.bincount(row_user, weights=m, minlength=n_users)
    if popularity is not None:
        if popularity.interactions.shape[0] != n_items:
            raise ValueError(
                f"popularity covers {popularity.interactions.shape[0]} items but "
                f"n_items is {n_items}."
            )
        if popularity.n_users > 0:
            novelty = -np.log2(np.maximum(popularity.users, 1) / popularity.n_users)
        else:  # no training user: novelty is undefined
            novelty = np.full(n_items, np.nan)
        tail = ~short_head(popularity.interactions, head_share)
        for row, x in ((1, novelty), (2, popularity.interactions), (3, tail)):
            stats[row] = np.bincount(row_user, weights=m * x[item], minlength=n_users)
    if item_features is not None:
        stats[4] = _ild_pair_sums(row_user, item, m, n_users, item_features, n_items)
    return BeyondPartials(item_count, item_sure, item_log_miss, users, stats,
                          popularity is not None, item_features is not None)


def merge(parts):
    """Partials of several chunks: item vectors added, user columns concatenated."""
    parts = list(parts)
    if not parts:
        raise ValueError("merge needs at least one BeyondPartials.")
    shapes = {p.item_count.shape for p in parts}
    if len(shapes) > 1:
        raise ValueError(f"the partials cover different catalogs: {sorted(shapes)}.")
    flags = {(p.has_popularity, p.has_features) for p in parts}
    if len(flags) > 1:
        raise ValueError(
            "the partials differ in whether popularity / item_features were given."
        )
    return BeyondPartials(
        sum(p.item_count for p in parts),
        sum(p.item_sure for p in parts),
        sum(p.item_log_miss for p in parts),
        np.concatenate([p.user for p in parts]),
        np.concatenate([p.user_stats for p in parts], axis=1),
        *flags.pop(),
    )


# ---------------------------------------------------------------------------
# finalize
# ---------------------------------------------------------------------------
def gini_index(counts):
    """``sum_j (2j - n - 1) c_(j) / (n sum c)``, c sorted ascending (``gini@K``).

    ``counts`` holds one exposure count per catalog item (zeros included);
    0 is equal exposure, ``1 - 1/n`` all of it on one item.  It equals one
    minus twice the area under :func:`lorenz_curve` (trapezoids).  Needs a
    positive total.
    """
    c = np.sort(np.asarray(counts, dtype=np.float64))
    n = c.shape[0]
    j = np.arange(1, n + 1)
    return float(((2 * j - n - 1) * c).sum() / (n * c.sum()))


def lorenz_curve(counts):
    """The Lorenz curve of per-item counts: ``(item_share, count_share)``.

    Items sorted by count ascending; point ``j`` (0 .. n) is the share
    ``j / n`` of the catalog's items against the share of the total count
    that these ``j`` least counted items hold.  Needs a positive total.
    """
    c = np.sort(np.asarray(counts, dtype=np.float64))
    n = c.shape[0]
    cum = np.concatenate(([0.0], np.cumsum(c)))
    return np.arange(n + 1) / n, cum / cum[-1]


def per_user_values(parts):
    """Per-user ``novelty``, ``arp``, ``long_tail`` and ``ild`` values.

    Returns ``{"user": codes, name: values}``, NaN where a user's value is
    undefined (empty list; fewer than 2 items for ``ild``) or the statistic
    was not computed.  A user present in two merged chunks is a ValueError.
    """
    user = parts.user
    ordered = np.sort(user)
    if np.any(ordered[1:] == ordered[:-1]):
        raise ValueError(
            "a user has rows in several chunks: the rows of one user must be in "
            "one chunk (partition by user)."
        )
    size, nov, arp, tail, pairs = parts.user_stats
    with np.errstate(invalid="ignore", divide="ignore"):
        nonempty = size > 0
        out = {"user": user}
        for name, x in (("novelty", nov), ("arp", arp), ("long_tail", tail)):
            out[name] = np.where(nonempty, x / size, np.nan)
        two = size >= 2 - 1e-9
        out["ild"] = np.where(two, 1 - pairs / (size * (size - 1)), np.nan)
    return out


def _mean(values, name):
    ok = ~np.isnan(values)
    if not ok.any():
        warn(f"{name} is undefined: no user has a list it applies to; "
             "returning nan.", UndefinedMetricWarning)
        return math.nan
    return float(values[ok].mean())


def catalog_values(count, sure, log_miss):
    """``(coverage, gini, entropy)`` of the per-item sums of
    :class:`BeyondPartials`; ``gini`` and ``entropy`` are NaN when nothing
    was recommended."""
    c = np.asarray(count, dtype=np.float64)
    covered = np.where(sure > 0, 1.0, -np.expm1(log_miss))
    coverage = float(covered.sum() / c.shape[0])
    total = c.sum()
    if total == 0:
        return coverage, math.nan, math.nan
    p = c[c > 0] / total
    return coverage, gini_index(c), float(-(p * np.log2(p)).sum())


#: ``finalize(coverage=...)``: the denominator of ``coverage@K``.
COVERAGE = ("catalog", "train_items", "items")
#: ``finalize(novelty=...)``: the variant of ``novelty@K``.
NOVELTY = ("users", "interactions")
#: ``finalize(entropy=...)``: the variant of ``entropy@K``.
ENTROPY = ("bits", "nats_per_item")
#: ``finalize(gini=...)``: the variant of ``gini@K``.
GINI = ("equality_0", "diversity")


def _check_variant(value, name, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}.")


def variants_need_popularity(coverage="catalog", novelty="users", **_):
    """Whether these ``finalize`` variants read the training popularity."""
    return coverage == "train_items" or novelty == "interactions"


def finalize(parts, *, k, coverage="catalog", novelty="users", entropy="bits",
             gini="equality_0", popularity=None):
    """The metric values, ``{"coverage@K": ..., ...}``, of summed partials.

    ``k`` only names the metrics.  ``novelty@K``, ``arp@K`` and
    ``long_tail@K`` are present when the partials were computed with
    ``popularity``, ``ild@K`` with ``item_features``; each is the mean over
    the users where it is defined.  ``gini@K`` and ``entropy@K`` are nan (with
    an UndefinedMetricWarning) when no item was recommended.

    Two variants of other libraries (``convention=`` of
    ``recommendation_report``) take the training :class:`Popularity` of the
    whole training set as ``popularity``:

    - ``coverage="train_items"``: the number of covered items over the
      number of items with a training interaction, instead of ``n_items``
      (Microsoft Recommenders' ``catalog_coverage``; it can exceed 1 when
      items without training interactions are recommended);
    - ``novelty="interactions"``: ``sum_i c_i nov_i / sum_i c_i``, pooled over
      all recommendations instead of averaged per user, with ``nov_i =
      -log2(interactions_i / total interactions)`` and ``nov_i = 0`` for an
      item without training interactions, which still counts in the
      denominator (Microsoft Recommenders' ``novelty``).  A function of the
      expected counts ``c_i``: under ties, its value at the expected counts.

    and others without ``popularity``:

    - ``entropy="nats_per_item"``: ``-sum_i p_i ln p_i`` (natural log) divided
      by the number of distinct recommended items (RecBole's
      ``ShannonEntropy``); under ties, the entropy at the expected counts over
      the expected number of covered items;
    - ``coverage="items"``: the number of covered items, not their share
      (Elliot's ``ItemCoverage``); under ties, its expected value;
    - ``gini="diversity"``: ``1 - G n / (n - 1)`` for the Gini index ``G`` of
      the ``n`` catalog items, 1 for equal exposure (Elliot's ``Gini``); nan
      with an UndefinedMetricWarning for a catalog of one item.
    """
    k = check_k(k, allow_none=False)
    _check_variant(coverage, "coverage", COVERAGE)
    _check_variant(novelty, "novelty", NOVELTY)
    _check_variant(entropy, "entropy", ENTROPY)
    _check_variant(gini, "gini", GINI)
    if popularity is None and variants_need_popularity(coverage, novelty):
        raise ValueError("coverage='train_items' and novelty='interactions' need "
                         "popularity= (of the training interactions).")
    if popularity is not None and popularity.interactions.shape[0] != \
            parts.item_count.shape[0]:
        raise ValueError(
            f"popularity covers {popularity.interactions.shape[0]} items but "
            f"the partials {parts.item_count.shape[0]}.")
    covered, gini_value, entropy_value = catalog_values(
        parts.item_count, parts.item_sure, parts.item_log_miss)
    n = parts.item_count.shape[0]
    if entropy == "nats_per_item" and not math.isnan(entropy_value):
        entropy_value *= math.log(2) / (covered * n)
    if gini == "diversity":
        if n < 2:
            warn(f"gini@{k} as a diversity is undefined for a catalog of one "
                 "item (n - 1 = 0); returning nan.", UndefinedMetricWarning)
            gini_value = math.nan
        else:
            gini_value = 1.0 - gini_value * n / (n - 1)
    if coverage == "train_items":
        n_train = int(np.count_nonzero(popularity.interactions))
        if n_train == 0:
            warn(f"coverage@{k} over the training items is undefined: no "
                 "training interaction; returning nan.", UndefinedMetricWarning)
            covered = math.nan
        else:
            covered *= n / n_train
    elif coverage == "items":
        covered *= n
    if math.isnan(entropy_value):
        warn("gini and entropy are undefined: no item was recommended; "
             "returning nan.", UndefinedMetricWarning)
    out = {f"coverage@{k}": covered, f"gini@{k}": gini_value,
           f"entropy@{k}": entropy_value}
    values = per_user_values(parts)
    for name in user_metrics(parts):
        out[f"{name}@{k}"] = _mean(values[name], f"{name}@{k}")
    if novelty == "interactions" and parts.has_popularity:
        out[f"novelty@{k}"] = _pooled_novelty(parts.item_count,
                                              popularity.interactions,
                                              f"novelty@{k}")
    return out


def user_metrics(parts):
    """The names of the per-user metrics that ``parts`` can give."""
    return (NEEDS_POPULARITY if parts.has_popularity else ()) + (
        ("ild",) if parts.has_features else ())



def bootstrap(parts, *, n_users, n_resamples, rng):
    """Bootstrap distributions of the per-user metrics over users,
    ``{name: (n_resamples,) array}`` (``novelty``, ``arp``, ``long_tail``,
    ``ild``: those ``parts`` can give).

    ``parts.user`` holds codes ``0 .. n_users - 1`` of the users resampled
    (users without a list among them count as drawn, with no value).  A
    resample draws ``n_users`` users with replacement
    (:func:`~._bootstrap.resample_counts`); a user drawn ``c`` times counts
    ``c`` times in the mean: ``(C @ v) / (C @ d)`` for each chunk of resample
    counts ``C``, per-user values ``v`` and defined flags ``d``, no loop over
    users.

    ``coverage``, ``gini`` and ``entropy`` have none: a resample repeats
    users, which never adds an item to the union of the lists, so their
    bootstrap over users is biased downwards (its percentile interval can
    miss the value itself).
    """
    from .._stats import resample_counts

    values = per_user_values(parts)
    names = user_metrics(parts)
    sums = np.zeros((len(names), n_users))
    defined = np.zeros((len(names), n_users))
    for row, name in enumerate(names):
        ok = ~np.isnan(values[name])
        sums[row, parts.user[ok]] = values[name][ok]
        defined[row, parts.user[ok]] = 1.0
    out = np.empty((len(names), n_resamples))
    for start, counts in resample_counts(n_users, n_resamples, rng):
        with np.errstate(invalid="ignore", divide="ignore"):
            out[:, start:start + counts.shape[0]] = (sums @ counts.T) / (
                defined @ counts.T)
    return dict(zip(names, out))


def _pooled_novelty(count, interactions, name):
    """``sum_i c_i nov_i / sum_i c_i``, ``nov_i = -log2(share of interactions)``."""
    total = count.sum()
    n_rows = interactions.sum()
    if total == 0 or n_rows == 0:
        warn(f"{name} is undefined: no recommendation or no training "
             "interaction; returning nan.", UndefinedMetricWarning)
        return math.nan
    seen = interactions > 0
    nov = np.zeros(interactions.shape[0])
    nov[seen] = -np.log2(interactions[seen] / n_rows)
    return float((count * nov).sum() / total)
