"""Beyond-accuracy metrics of top-N lists: their additive statistics and finalize.

The statistics core of ``coverage@K``, ``gini@K``, ``entropy@K``,
``novelty@K``, ``arp@K``, ``long_tail@K`` and ``ild@K`` (API.md, "Top-N
recommendation lists"), declared in :data:`._registry.LIST_METRICS` (their
options, defaults, statistics, finalize and needs).  Reading the lists and
each row's membership of its user's top-K list belong to
:mod:`sklearn_rankeval._recommend`; what is here starts from codes.

Input: the long layout
----------------------
The recommended lists are flat arrays, one row per (user, item) pair:

- ``user``: integer codes ``0 .. n_users - 1``;
- ``item``: integer codes ``0 .. n_items - 1`` (a code ``>= n_items`` is a
  ``ValueError`` naming the argument); a (user, item) pair appears once;
- ``membership``: each row's probability of being in the user's top-K list
  ``L_u``: 1 for an item strictly above the cut, ``(free places) / (tie
  size)`` for an item of the tie block at the K-th place, 0 below.

Training interactions are ``train_user``, ``train_item`` codes; they give
each item's :class:`Popularity` (its number of training interactions and of
distinct training users).  ``item_features`` is a dense ``(n_items, d)``
array or a SciPy sparse matrix whose row ``i`` describes item ``i``.

Statistics contract (as ``_stats``)
-----------------------------------
Every metric is a ``finalize`` of sums that add across chunks of users,
batches of ``top_k_items`` and Spark/Dask partitions:

1. :func:`partials` returns :class:`BeyondPartials`: per-item vectors (the
   expected count ``c_i = sum_u m_ui``, the number of users whose list surely
   holds ``i`` and ``sum log(1 - m_ui)`` over fractional memberships) and one
   column of per-user sums per user present in the chunk;
2. :func:`merge` adds the per-item vectors and concatenates the per-user
   columns (a user's rows must all be in one chunk, as for every grouped
   metric of the package: partitions are by user);
3. each metric's finalize (:func:`coverage`, :func:`gini`, :func:`entropy`:
   a value of the catalog; :func:`novelty`, :func:`arp`, :func:`long_tail`,
   :func:`ild`: one :class:`~sklearn_rankeval._stats.Partials` value per
   user, averaged over the users where it is defined by the statistics
   contract, which also bootstraps them).

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
.. [5] RecBole 1.2.1, ``recbole/evaluator/metrics.py`` (ShannonEntropy);
   Elliot 1.0.0 (Gini as a diversity, ItemCoverage); Microsoft Recommenders
   1.2.1, ``recommenders/evaluation/python_evaluation.py`` (catalog_coverage,
   novelty): the variants of :data:`COVERAGE`, :data:`NOVELTY`,
   :data:`ENTROPY` and :data:`GINI`.
"""

import math
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._core import Interval, declared, warn
from .._stats import Partials

__all__ = [
    "COVERAGE",
    "ENTROPY",
    "GINI",
    "NOVELTY",
    "USER_STATS",
    "BeyondPartials",
    "Popularity",
    "arp",
    "check_head_share",
    "coverage",
    "distinct_pairs",
    "entropy",
    "gini",
    "gini_index",
    "ild",
    "long_tail",
    "lorenz_curve",
    "merge",
    "novelty",
    "partials",
    "popularity",
    "short_head",
]

#: Per-user statistics, the rows of ``BeyondPartials.user_stats``.
USER_STATS = ("size", "novelty", "arp", "long_tail", "ild_pairs")
#: ``coverage@K``'s ``denominator``: n_items, the training items, or 1.
COVERAGE = ("catalog", "train_items", "items")
#: ``novelty@K``'s ``variant``: per user (-log2 of the share of training
#: users), or pooled over all recommendations (of training interactions).
NOVELTY = ("users", "interactions")
#: ``entropy@K``'s ``unit``: bits, or nats over the number of covered items.
ENTROPY = ("bits", "nats_per_item")
#: ``gini@K``'s ``form``: the Gini index (0: equal exposure) or 1 - G n/(n-1).
GINI = ("equality_0", "diversity")

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



def distinct_pairs(a, b):
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
    pair_user, pair_item = distinct_pairs(train_user, train_item)
    users = np.bincount(pair_item, minlength=n_items)
    # the pairs are sorted by user: one more user at each change
    n_users = 1 + int(np.count_nonzero(pair_user[1:] != pair_user[:-1]))
    return Popularity(interactions, users, n_users)


#: ``head_share``: the share of interactions the short head holds, in [0, 1].
check_head_share = declared("head_share", Interval(Real, 0, 1, "both"),
                            text="a real number in [0, 1]")


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
             item_features=None, head_share=0.8, tail=None):
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
    tail : ndarray of bool of shape (n_items,), default=None
        The long-tail items, when ``popularity`` covers a part of the
        catalog only (a partition's items): the complement of the
        :func:`short_head` of the whole training set.  None: from
        ``popularity`` and ``head_share``.

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
        if tail is None:
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
# finalize: one function per metric, ``finalize(parts, label, options,
# popularity)`` (declared in ``_registry.LIST_METRICS``)
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


#: Why a catalog metric has no value when no evaluated user's list holds an
#: item.
NOTHING_RECOMMENDED = ("no evaluated user has an item in their top-K list "
                       "(no list, or only items scored -inf)")


def _undefined(label, why):
    warn(f"{label} is undefined: {why}; returning nan.", UndefinedMetricWarning)
    return math.nan


def _covered(parts):
    """The expected number of covered items, ``sum_i 1 - prod_u (1 - m_ui)``."""
    return float(np.where(parts.item_sure > 0, 1.0,
                          -np.expm1(parts.item_log_miss)).sum())


def coverage(parts, label, options, popularity=None):
    """``coverage@K``: the expected number of covered items over the
    ``denominator``: ``"catalog"`` (``n_items``), ``"train_items"`` (the
    items with a training interaction: Microsoft Recommenders'
    ``catalog_coverage``, which can exceed 1) or ``"items"`` (1: the number
    of covered items, Elliot's ``ItemCoverage``)."""
    _check_popularity(parts, popularity)
    covered = _covered(parts)
    denominator = options.get("denominator", "catalog")
    if denominator == "items":
        return covered
    if denominator == "train_items":
        n_train = int(np.count_nonzero(popularity.interactions))
        if n_train == 0:
            return _undefined(label, "no training interaction, so no training "
                                     "item to cover")
        return covered / n_train
    return covered / parts.item_count.shape[0]


def gini(parts, label, options, popularity=None):
    """``gini@K``: :func:`gini_index` of the expected counts (``form=
    "equality_0"``, 0 for equal exposure), or ``1 - G n / (n - 1)``
    (``"diversity"``, 1 for equal exposure: Elliot's ``Gini``)."""
    c = parts.item_count
    if c.sum() == 0:
        return _undefined(label, NOTHING_RECOMMENDED)
    value = gini_index(c)
    if options.get("form", "equality_0") == "diversity":
        n = c.shape[0]
        if n < 2:
            return _undefined(label, "as a diversity, for a catalog of one item "
                                     "(n - 1 = 0)")
        value = 1.0 - value * n / (n - 1)
    return value


def entropy(parts, label, options, popularity=None):
    """``entropy@K``: ``-sum_i p_i log2 p_i``, ``p_i = c_i / sum c`` (``unit=
    "bits"``), or ``-sum_i p_i ln p_i`` over the (expected) number of covered
    items (``"nats_per_item"``: RecBole's ``ShannonEntropy``)."""
    c = parts.item_count
    total = c.sum()
    if total == 0:
        return _undefined(label, NOTHING_RECOMMENDED)
    p = c[c > 0] / total
    value = float(-(p * np.log2(p)).sum())
    if options.get("unit", "bits") == "nats_per_item":
        value *= math.log(2) / _covered(parts)
    return value


def _check_popularity(parts, popularity):
    if popularity is not None and popularity.interactions.shape[0] != \
            parts.item_count.shape[0]:
        raise ValueError(
            f"popularity covers {popularity.interactions.shape[0]} items but "
            f"the partials {parts.item_count.shape[0]}.")


def _per_user(parts, row, label, least=1.0):
    """Per-user means ``user_stats[row] / size`` as :class:`Partials` over
    ``parts.user``, defined for the users with at least ``least`` items.  A
    user present in two merged chunks is a ValueError."""
    ordered = np.sort(parts.user)
    if np.any(ordered[1:] == ordered[:-1]):
        raise ValueError(
            "a user has rows in several chunks: the rows of one user must be in "
            "one chunk (partition by user).")
    if not (parts.has_features if row == 4 else parts.has_popularity):
        raise ValueError(f"{label}: its statistics were not computed (the "
                         "partials lack popularity or item features).")
    size = parts.user_stats[0]
    # (novelty without any training user: NaN statistics, undefined)
    defined = (size >= least - 1e-9) & ~np.isnan(parts.user_stats[row])
    with np.errstate(invalid="ignore", divide="ignore"):
        value = np.where(defined, parts.user_stats[row] / size, np.nan)
    return Partials(value, defined)


def novelty(parts, label, options, popularity=None):
    """``novelty@K``: per user the mean ``-log2(u_i / n_users_train)``
    (``variant="users"``); or pooled over all recommendations, ``sum_i c_i
    nov_i / sum_i c_i`` with ``nov_i = -log2(interactions_i / total
    interactions)`` and 0 for an item without any (``"interactions"``:
    Microsoft Recommenders' ``novelty``; a value of the catalog)."""
    if options.get("variant", "users") == "users":
        return _per_user(parts, 1, label)
    _check_popularity(parts, popularity)
    count, interactions = parts.item_count, popularity.interactions
    total, n_rows = count.sum(), interactions.sum()
    if total == 0 or n_rows == 0:
        return _undefined(label, "no recommendation or no training interaction")
    seen = interactions > 0
    nov = np.zeros(interactions.shape[0])
    nov[seen] = -np.log2(interactions[seen] / n_rows)
    return float((count * nov).sum() / total)


def arp(parts, label, options, popularity=None):
    """``arp@K``: per user the mean training interactions of ``L_u``."""
    return _per_user(parts, 2, label)


def long_tail(parts, label, options, popularity=None):
    """``long_tail@K``: per user the share of ``L_u`` outside the short head
    (the head of ``head_share``, applied in :func:`partials`)."""
    return _per_user(parts, 3, label)


def ild(parts, label, options, popularity=None):
    """``ild@K``: per user ``1 - E[sum of pairwise cosines] / (|L_u| (|L_u| -
    1))``, defined for lists of at least 2 items."""
    p = _per_user(parts, 4, label, least=2.0)  # pairs / |L_u|
    size = parts.user_stats[0]
    with np.errstate(invalid="ignore", divide="ignore"):
        value = np.where(p.defined, 1 - p.value / (size - 1), np.nan)
    return p._replace(value=value)
