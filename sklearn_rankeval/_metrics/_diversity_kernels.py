"""Kernels of the diversity metrics: grades per (item, intent).

Every function here reads the rows of the groups in rank order (groups one
after the other, within a group the highest score first, tied rows
together), as :class:`IntentRows`: the grades per intent ``G`` of shape
``(n_rows, n_intents)``, the scores, each group's size and the intent weights
``P(i | q)`` of each group.  The engine gives them to a kernel as its
``RankedGroups``' columns (:func:`intent_rows`).

The gain of the item at rank ``r`` (Clarke et al. 2008, 2009) is

.. math::

    G(r) = \\sum_i w_i\\, g_{r,i}\\, (1 - \\alpha)^{c_i(r)}

with ``c_i(r)`` the items above rank ``r`` relevant to intent ``i``
(``g > 0``) and ``w_i`` the intent's weight, normalised to sum to 1 over the
intents that have a relevant item in the group (the other intents are
ignored, as ndeval ignores them).  alpha-DCG discounts it by
``1 / log2(1 + r)``, ERR-IA by ``1 / r`` and NRBP by ``beta**(r - 1)``.

*Ties*: every value is the expected value over the orders of the tied items
(each tie block permuted uniformly at random), computed exactly without
enumerating the orders (:func:`cascade_value`).  *Ideal*: the largest value
over every order of the group's items (retrieved or not), by an exact search
(:func:`exact_ideal`), by ndeval's greedy construction
(:func:`greedy_ideal`), or ndeval's "ideal ideal" (every rank holds an item
relevant to every intent at the group's largest grade).

The cascade value, the greedy and exact ideals, the coverage of each
intent and each intent's largest grade are computed by the engine's
compiled pass (:func:`~.._engine.intent_pass`,
``_engine/_intent_kernels.pxd``): one pass over the groups, on OpenMP
threads, with no Python loop over groups or rows.  The intent-aware metrics
rank each intent's grades by the engine (one ranking per intent).
"""

from typing import NamedTuple

import numpy as np

from .._core import InvalidArgumentError, to_numpy, warn, xpx
from .._engine import intent_pass, rank_groups
from .._stats import Partials
from ._options import CALL_K

__all__ = [
    "DISCOUNTS",
    "alpha_ndcg",
    "d_sharp_ndcg",
    "err_ia",
    "intent_aware",
    "nrbp",
    "subtopic_recall",
    "EXACT_NODE_BUDGET",
    "IntentRows",
    "cascade_value",
    "coverage",
    "covered_share",
    "discount_vector",
    "exact_ideal",
    "greedy_ideal",
    "ideal_ideal",
    "intent_rows",
    "intent_stats",
]

#: The exact search of one group's ideal stops after this many nodes; the
#: ideal is then the best order found (never below the greedy one).
EXACT_NODE_BUDGET = 200_000


class IntentRows(NamedTuple):
    """The rows of the groups in rank order (see the module docstring).

    grades : (n_rows, n_intents) float64, >= 0
    scores : (n_rows,) float (``-inf``: not retrieved)
    sizes : (n_groups,) int64, each group's number of rows (>= 1)
    weights : (n_groups, n_intents) float64 or None (equal weights)
    priority : (n_rows,) int64 or None
        Which of two items a greedy step takes when their gains are equal
        (the larger; None: the larger grade vector, lexicographically).
    """

    grades: np.ndarray
    scores: np.ndarray
    sizes: np.ndarray
    weights: object = None
    priority: object = None


def _discount_log(pos):
    return 1.0 / np.log2(pos + 2.0)


def _discount_reciprocal(pos):
    return 1.0 / (pos + 1.0)


#: 0-based position -> discount, by name (``beta`` is NRBP's patience).
DISCOUNTS = {
    "log2": lambda pos, beta=None: _discount_log(np.asarray(pos, dtype=float)),
    "reciprocal": lambda pos, beta=None: _discount_reciprocal(
        np.asarray(pos, dtype=float)),
    "geometric": lambda pos, beta=0.5: np.power(beta, np.asarray(pos, dtype=float)),
}


def _present(rows):
    """(n_groups, n_intents) bool: the intent has a relevant item in the group
    (the rows are group after group: a segment reduction)."""
    sizes = np.asarray(rows.sizes, dtype=np.int64)
    return np.maximum.reduceat(np.asarray(rows.grades) > 0,
                               np.cumsum(sizes) - sizes, axis=0)


def intent_weights(rows, present):
    """The weights ``w_i`` of each group: over its present intents, summing to 1."""
    if rows.weights is None:
        w = present.astype(np.float64)
    else:
        w = np.where(present, np.asarray(rows.weights, dtype=np.float64), 0.0)
    total = w.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, w / np.where(total > 0, total, 1.0), 0.0)


def discount_vector(rows, discount, beta=None):
    """The discount of each 0-based rank ``0 ..`` the largest group's size."""
    sizes = np.asarray(rows.sizes)
    pos = np.arange(max(int(sizes.max()) if sizes.size else 0, 1) + 1)
    disc = DISCOUNTS[discount]
    return disc(pos, beta) if beta is not None else disc(pos)


def intent_stats(rows, *, alpha, discount, k=None, beta=None, ideal=None,
                 budget=0, cover=False, cover_k=None, top=False):
    """The compiled pass over the rows (:func:`~.._engine.intent_pass`):
    each group's cascade value (to ``k``; ``k=0``: none), its ``ideal``
    (None, ``"greedy"`` or ``"exact"``), whether that is proven, its intent
    weights and present intents, and when asked the coverage of each intent
    at ``cover_k`` and each intent's largest grade (``top``)."""
    return intent_pass(rows.grades, rows.scores, rows.sizes,
                       discount_vector(rows, discount, beta), alpha=alpha, k=k,
                       weights=rows.weights, priority=rows.priority, ideal=ideal,
                       budget=budget, cover=cover, cover_k=cover_k, top=top)


def cascade_value(rows, *, alpha, discount, k=None, beta=None):
    """Per group, the expected ``sum_{r <= k} D(r) G(r)`` over tied orders.

    For a row in a tie block of ``m`` items that starts at 0-based position
    ``s``, with ``c0_i`` items relevant to ``i`` above the block and ``R_i``
    relevant to ``i`` in it, the expected contribution of a relevant item of
    grade ``g`` is ``w_i g q**c0_i H`` (``q = 1 - alpha``) with

        H = (1/m) sum_{j < m} D(s + j) E[q**X_j],

    ``X_j`` the relevant items among the ``j`` placed above it, which is
    hypergeometric (``j`` draws from the ``m - 1`` others, ``R_i - 1`` of
    them relevant): its distribution follows from ``X_0 = 0`` one draw at a
    time, every coefficient non-negative.  Positions at or beyond ``k`` and
    rows scored ``-inf`` (not retrieved: the last block) add nothing.
    Computed by the compiled pass (``_engine/_intent_kernels.pxd``).
    """
    return intent_stats(rows, alpha=alpha, discount=discount, k=k,
                        beta=beta).value


def coverage(rows, *, k, weighted=True):
    """Per group, the expected weighted share of intents with a relevant item
    in the top ``k`` (subtopic recall, I-rec), over the orders of tied items
    (``weighted=False``: every present intent alike).

    An intent is missed when none of its ``R`` relevant items of a tie
    block of ``m`` crossing the cutoff (``t`` of its positions within it)
    lands there: probability ``C(m - R, t) / C(m, t)``.  Computed by the
    compiled pass (``_engine/_intent_kernels.pxd``).
    """
    out = intent_stats(rows, alpha=0.0, discount="log2", k=0, cover=True,
                       cover_k=k)  # (k=0: no cascade value)
    return covered_share(rows, out, weighted)


def covered_share(rows, out, weighted):
    """The weighted share of the covered intents, from the pass's output."""
    weights = (out.weights if weighted
               else intent_weights(rows._replace(weights=None), out.present))
    return (weights * out.covered).sum(axis=1)


# ---------------------------------------------------------------------------
# ideals
# ---------------------------------------------------------------------------
def ideal_ideal(rows, *, alpha, discount, k=None, beta=None, weights=None,
                top=None):
    """ndeval's "ideal ideal": every rank ``r <= k`` holds an item relevant to
    every intent at the group's largest grade of that intent.  ``k=None``:
    the group's size (NRBP: the infinite sum, ``1 / (1 - q beta)`` times the
    weighted largest grade).  ``weights`` and ``top`` (each intent's largest
    grade): the pass's, computed here when not given."""
    n_groups = rows.sizes.shape[0]
    if weights is None or top is None:
        out = intent_stats(rows, alpha=alpha, discount=discount, k=0, top=True)
        weights, top = out.weights, out.top
    gmax = top
    top = (weights * gmax).sum(axis=1)
    q = 1.0 - alpha
    if discount == "geometric" and k is None:
        return top / (1.0 - q * beta)
    depth = np.asarray(rows.sizes) if k is None else np.full(n_groups, k)
    n_max = int(depth.max()) if depth.size else 0
    pos = np.arange(n_max)
    disc = DISCOUNTS[discount]
    terms = (disc(pos, beta) if beta is not None else disc(pos)) * q ** pos
    csum = np.concatenate([[0.0], np.cumsum(terms)])
    return top * csum[depth]


def greedy_ideal(rows, *, alpha, discount, k=None, beta=None):
    """ndeval's ideal: at each rank the item of largest gain given the ranks
    above (ties to the larger priority, then the earlier row), computed by
    the compiled pass group by group.  The ideal of a group orders all its
    items, retrieved or not."""
    return intent_stats(rows, alpha=alpha, discount=discount, k=k, beta=beta,
                        ideal="greedy").ideal


def exact_ideal(rows, *, alpha, discount, k=None, beta=None, budget=None):
    """The true ideal of each group: ``(value, proven)``.

    First the greedy ideal of the group (:func:`greedy_ideal`) and the bound
    of each intent alone (its grades largest first at the top ranks: no
    order does better for that intent).  Where they meet, greedy is optimal.
    Otherwise a branch and bound over the group's distinct weighted grade
    vectors with their counts (children in the order of their gain; a
    subtree is cut when its value plus the bound of its ranks cannot beat
    the best order found, and a multiset of placed items already reached
    with a value at least as large is not searched again).  The search is
    exact; it stops after ``budget`` nodes per group (default
    :data:`EXACT_NODE_BUDGET`; ``proven`` False for that group), keeping
    the best order found, never worse than greedy.  Every group in the
    compiled pass (``_engine/_intent_kernels.pxd``), on OpenMP threads.
    """
    budget = EXACT_NODE_BUDGET if budget is None else budget
    out = intent_stats(rows, alpha=alpha, discount=discount, k=k, beta=beta,
                       ideal="exact", budget=budget)
    return out.ideal, out.proven


# ---------------------------------------------------------------------------
# the engine's columns
# ---------------------------------------------------------------------------
def intent_rows(rg, *, binary=False):
    """The :class:`IntentRows` of a ranked input (its columns in rank order,
    as NumPy arrays).  Without grades per intent (1-D ``y_true``, or the
    2-D layout of one query per row) the relevance is one intent."""
    if _has_column(rg, "intent_grades"):
        grades = _host(rg.column("intent_grades"), np.float64)
    elif _has_column(rg, "y_true"):
        grades = _host(rg.column("y_true"), np.float64)[:, None]
    else:
        raise InvalidArgumentError(
            "y_true", "must hold grades per intent, of shape (n_samples, "
            "n_intents) beside a 1-D y_score, for a diversity metric (the "
            "multiclass layout has no rows of items).")
    if binary:
        grades = (grades > 0).astype(np.float64)
    scores = _host(rg.column("y_score"), np.float64)
    sizes = _host(rg.group_size, np.int64)
    weights = _group_first(rg, "intent_weights", sizes)
    if weights is not None and weights.shape[1] != grades.shape[1]:
        raise InvalidArgumentError(
            "intent_weights", f"must have one weight per intent of y_true "
            f"({grades.shape[1]}), got {weights.shape[1]}.")
    priority = None
    if _has_column(rg, "docno"):
        ids = _host(rg.column("docno"))
        _, priority = np.unique(ids, return_inverse=True)
    return IntentRows(grades, scores, sizes, weights, priority)


def _host(x, dtype=None):
    """A column as a NumPy array (the diversity kernels compute on the host)."""
    return np.asarray(to_numpy(x), dtype=dtype)


def _has_column(rg, name):
    try:
        rg.column(name)
    except (KeyError, ValueError):
        return False
    return True


def _group_first(rg, name, sizes):
    """A column constant within each group: its value in each group."""
    if not _has_column(rg, name):
        return None
    col = _host(rg.column(name), np.float64)
    starts = np.cumsum(sizes) - sizes
    first = col[starts]
    if np.any(col != first[np.repeat(np.arange(sizes.shape[0]), sizes)]):
        raise InvalidArgumentError(
            name, "must be constant within each group (the probability of "
            "each intent of the group's query).")
    return first


def _partials(rg, values, defined):
    """The kernel's :class:`~sklearn_rankeval._stats.Partials`, in the
    namespace and on the device of the ranked input."""
    value = np.where(defined, values, 0.0)
    if rg.xp is np:
        return Partials(value, defined)
    return Partials(xpx.asarray(rg.xp, value, rg.device),
                    xpx.asarray(rg.xp, defined, rg.device))


def _normalised(rg, discount, *, k, alpha, beta, normalization, grades, factor):
    """The cascade value of each group under ``normalization``.

    ``"exact"``: over the true ideal (:func:`exact_ideal`); where its search
    stopped before proving the ideal, over the larger of the best order found
    and the ranking's own value, so that the value never exceeds 1;
    ``"greedy"``: over ndeval's ideal; ``"ideal-ideal"``: over ndeval's
    ideal ideal; ``"none"``: the value times ``factor`` (ERR-IA's stopping
    probability alpha, NRBP's ``1 - (1 - alpha) beta``).
    """
    rows = intent_rows(rg, binary=grades == "binary")
    out = intent_stats(rows, alpha=alpha, discount=discount, k=k, beta=beta,
                       ideal=normalization if normalization in ("exact", "greedy")
                       else None, budget=EXACT_NODE_BUDGET,
                       top=normalization == "ideal-ideal")
    value, defined = out.value, out.present.any(axis=1)
    if normalization == "none":
        return _partials(rg, factor * value, defined)
    if normalization == "exact":
        ideal = np.where(out.proven, out.ideal, np.maximum(out.ideal, value))
        if not out.proven.all():
            warn(f"normalization='exact': the search for the ideal order "
                 f"stopped at its budget of {EXACT_NODE_BUDGET} nodes in "
                 f"{int((~out.proven).sum())} of {out.proven.shape[0]} groups; "
                 f"their ideal is the best order found (never below the "
                 f"greedy ideal nor the ranking itself, so no value exceeds 1).",
                 UserWarning)
    elif normalization == "greedy":
        ideal = out.ideal
    else:
        ideal = ideal_ideal(rows, alpha=alpha, discount=discount, k=k, beta=beta,
                            weights=out.weights, top=out.top)
    defined = defined & (ideal > 0)
    return _partials(rg, value / np.where(ideal > 0, ideal, 1.0), defined)


def alpha_ndcg(rg, k=None, alpha=0.5, normalization="exact", grades="graded"):
    """alpha-nDCG@k (Clarke et al. 2008): discount ``1 / log2(1 + r)``."""
    return _normalised(rg, "log2", k=k, alpha=alpha, beta=None,
                       normalization=normalization, grades=grades, factor=1.0)


def err_ia(rg, k=None, alpha=0.5, normalization="exact", grades="graded"):
    """ERR-IA@k (Chapelle et al. 2009; Clarke et al. 2009): discount ``1 / r``;
    unnormalised, the intent-aware ERR whose relevant item stops the user
    with probability ``alpha`` (times its grade)."""
    return _normalised(rg, "reciprocal", k=k, alpha=alpha, beta=None,
                       normalization=normalization, grades=grades, factor=alpha)


def nrbp(rg, k=None, alpha=0.5, beta=0.5, normalization="exact", grades="graded"):
    """NRBP (Clarke et al. 2009): discount ``beta**(r - 1)``; unnormalised,
    ndeval's NRBP, ``(1 - (1 - alpha) beta)`` times the sum."""
    return _normalised(rg, "geometric", k=k, alpha=alpha, beta=beta,
                       normalization=normalization, grades=grades,
                       factor=1.0 - (1.0 - alpha) * beta)


def subtopic_recall(rg, k=10, grades="graded"):
    """Subtopic (intent) recall at ``k`` (Zhai et al. 2003): the share of the
    group's intents with a relevant item in the top ``k``, weighted by the
    intent weights (equal by default)."""
    rows = intent_rows(rg, binary=grades == "binary")
    out = intent_stats(rows, alpha=0.0, discount="log2", k=0, cover=True,
                       cover_k=k)
    return _partials(rg, covered_share(rows, out, weighted=True),
                     out.present.any(axis=1))


def d_sharp_ndcg(rg, k=None, gamma=0.5):
    """D#-nDCG@k (Sakai and Song 2011): ``gamma I-rec@k + (1 - gamma)
    D-nDCG@k``.  I-rec: the share of the intents covered (unweighted, as
    NTCIREVAL); D-nDCG: the nDCG of the global gain ``sum_i P(i|q) g_i``
    (the cascade gain with ``alpha = 0``, whose greedy ideal, the items by
    global gain, is the ideal)."""
    rows = intent_rows(rg)
    out = intent_stats(rows, alpha=0.0, discount="log2", k=k, ideal="greedy",
                       cover=True, cover_k=k)
    irec = covered_share(rows, out, weighted=False)
    dndcg = out.value / np.where(out.ideal > 0, out.ideal, 1.0)
    return _partials(rg, gamma * irec + (1.0 - gamma) * dndcg,
                     out.present.any(axis=1))


def intent_aware(rg, k=10, metric=None):
    """An intent-aware metric (Agrawal et al. 2009): ``sum_i P(i|q) M_i``,
    ``M_i`` the metric of the ranking with intent ``i``'s grades as
    relevance, over the intents where ``M_i`` is defined (weights
    renormalised over them).  ``metric``: ``(name, kernel, options)``
    (checked by the registry); ``k``: the cutoff of a metric that needs one
    and whose name gives none (``"precision"``).
    Each intent is ranked by the engine like any relevance
    (``rank_groups``), so the metric's own tie rule applies."""
    _, kernel, options = metric
    options = dict(options)
    if options.get("k") == CALL_K:
        options["k"] = k
    rows = intent_rows(rg)
    n_groups = rows.sizes.shape[0]
    gid = np.repeat(np.arange(n_groups), rows.sizes)
    weights = intent_weights(rows, _present(rows))
    total = np.zeros(n_groups)
    mass = np.zeros(n_groups)
    for i in range(rows.grades.shape[1]):  # one ranking per intent
        ranked = rank_groups(rows.grades[:, i], rows.scores, groups=gid)
        part = kernel(ranked, **options).to_numpy()
        w = np.where(part.defined, weights[:, i], 0.0)
        total += w * np.where(part.defined, part.value, 0.0)
        mass += w
    defined = mass > 0
    return _partials(rg, total / np.where(defined, mass, 1.0), defined)
