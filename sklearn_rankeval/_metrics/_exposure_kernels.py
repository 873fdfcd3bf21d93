"""Expected exposure (Diaz et al. 2020): the kernel of
:func:`~sklearn_rankeval.expected_exposure_score`.

A group (query) holds items; ``samples`` cut its rows into sampled
rankings of a stochastic policy (one ranking without it).  A browsing model
gives the exposure of each rank; the exposure ``e`` of an item is its mean
over the group's rankings, the target ``e*`` the exposure an ideal policy
gives it (every item of one relevance grade equally exposed: the mean of the
exposures of the ranks its grade holds in a ranking by grade).  The kernel
reads the rows in rank order (:meth:`RankedGroups.column`); every step is a
vectorised pass over the rows (the ties' hypergeometric factors of the
``gerr`` model are computed once per distinct tie block shape).
"""

from typing import NamedTuple

import numpy as np
from scipy.special import gammaln

from .._core import InvalidParameterError, asarray, to_numpy, xpx
from .._stats import Partials

__all__ = ["FAIRRANKTUNE_DISTANCES", "ItemExposures", "awrf",
           "expected_exposure", "ideal_exposure", "item_exposures",
           "plackett_luce_exact", "rank_exposure"]


def _starts(*keys):
    """Mask of the rows where any of ``keys`` changes (row 0 included): the
    package's one rule, :func:`~sklearn_rankeval._core.xpx.starts`, on each."""
    flags = xpx.starts(np, keys[0])
    for key in keys[1:]:
        flags |= xpx.starts(np, key)
    return flags


def _run_index(flags):
    """For each row: its run's index and the run's first row."""
    run = np.cumsum(flags) - 1
    first = np.flatnonzero(flags)
    return run, first


def _pair_order(major, minor):
    """The rows ordered by ``(major, minor)`` (non-negative int codes), tied
    rows in row order: ``np.lexsort((minor, major))``, as one stable sort of
    the pair's int64 key (3-5x faster than the two passes of ``lexsort``)."""
    if major.shape[0] == 0:
        return np.arange(0)
    span = int(minor.max()) + 1
    if (int(major.max()) + 1) * span >= 1 << 62:  # (the key would overflow)
        return np.lexsort((minor, major))
    return np.argsort(major.astype(np.int64) * span + minor, kind="stable")


def _tie_factor(m, r, p, u):
    """``E[p**J (1-u)**H]`` for an item of a tie block of ``m`` items with
    ``r`` relevant others, its place uniform: ``J`` items of the block above
    it (uniform on ``0..m-1``) of which ``H`` relevant (hypergeometric:
    ``J`` draws of ``m - 1`` items holding ``r`` relevant ones).  Arrays
    of shapes; one evaluation per distinct ``(m, r)``."""
    out = np.ones(m.shape[0])
    pairs, index = np.unique(np.stack([m, r], axis=1), axis=0, return_inverse=True)
    values = np.ones(pairs.shape[0])
    for k, (mm, rr) in enumerate(pairs):  # distinct block shapes, not rows
        if mm <= 1:
            continue
        if mm * (rr + 1) > TIE_SUM_CELLS:  # a large block: O(1) memory
            values[k] = _tie_integral(mm, rr, p, u)
            continue
        j = np.arange(mm)[:, None]
        h = np.arange(rr + 1)[None, :]
        total, good = mm - 1, rr
        valid = (h <= j) & (j - h <= total - good)
        log_pmf = (_log_comb(good, h) + _log_comb(total - good, j - h)
                   - _log_comb(total, j))
        pmf = np.where(valid, np.exp(np.where(valid, log_pmf, 0.0)), 0.0)
        values[k] = np.mean(p ** j[:, 0] * (pmf * (1.0 - u) ** h).sum(axis=1))
    out[:] = values[index.reshape(-1)]
    return out


#: Blocks of tied items with more (rows x relevant) pairs than this get the
#: tie factor from its integral form (:func:`_tie_integral`).
TIE_SUM_CELLS = 1 << 20


def _tie_integral(m, r, p, u):
    """The tie factor of :func:`_tie_factor` as an integral: writing
    ``1 / C(m-1, j)`` as a Beta integral, ``E[p**J (1-u)**H] = int_0^1
    (1 - t (1 - p (1-u)))**r (1 - t (1 - p))**(m-1-r) dt`` (an integrand
    that peaks at 0), by adaptive quadrature to 1e-12."""
    from scipy.integrate import quad

    a, b, rest = 1.0 - p * (1.0 - u), 1.0 - p, m - 1 - r

    def integrand(t):
        return np.exp(r * np.log1p(-t * a) + rest * np.log1p(-t * b))

    # (the mass lies within a few 1 / (r a + rest b) of 0)
    scale = min(1.0, 50.0 / max(r * a + rest * b, 1e-300))
    head = quad(integrand, 0.0, scale, epsabs=0.0, epsrel=1e-13, limit=200)[0]
    tail = (quad(integrand, scale, 1.0, epsabs=0.0, epsrel=1e-13, limit=200)[0]
            if scale < 1.0 else 0.0)
    return head + tail


def _log_comb(n, k):
    return gammaln(n + 1.0) - gammaln(k + 1.0) - gammaln(n - k + 1.0)


def rank_exposure(ranking, score, relevant, user_model, p, u):
    """The expected exposure of each row in its ranking (rows of one ranking
    together, in rank order; ``ranking`` their ranking's index).

    ``rbp``: ``p**i`` at 0-based rank ``i``; ``gerr``: ``p**i (1-u)**h``,
    ``h`` the relevant items above.  Tied items (equal scores): the
    expectation over their orders (each order equally likely); a row with
    score ``-inf`` is not ranked (exposure 0).
    """
    flags = _starts(ranking)
    run, first = _run_index(flags)
    pos = np.arange(ranking.shape[0]) - first[run]
    blocks = _starts(ranking, score)
    block, bfirst = _run_index(blocks)
    size = np.bincount(block)
    m = size[block]
    start = pos[bfirst][block]  # items of the ranking above the block
    if user_model == "rbp":
        # the mean of p**i over the block's ranks start .. start + m - 1
        exposure = p ** start * (-np.expm1(m * np.log(p))) / (m * (1.0 - p))
    elif user_model == "log":  # the mean of the block's ranks' discounts
        exposure = (np.bincount(block, weights=_position_weight(pos, "log", p))
                    / size)[block]
    else:
        rel = relevant.astype(np.int64)
        block_rel = np.bincount(block, weights=rel).astype(np.int64)
        # relevant items of the ranking above each block
        cum = np.cumsum(rel) - rel
        above = cum[bfirst][block] - cum[first[run]]
        factor = _tie_factor(m, block_rel[block] - rel, p, u)
        exposure = p ** start * (1.0 - u) ** above * factor
    return np.where(score > -np.inf, exposure, 0.0)


def plackett_luce_exact(score, relevant, user_model, p, u):
    """The exact expected exposure of the items of ``G`` queries of ``m``
    items each (``score`` and ``relevant`` of shape ``(G, m)``, finite
    scores) under the Plackett-Luce policy of the scores (log-weights).

    The exposure of rank ``c`` depends on the set ``S`` of the items above it
    alone (``rbp``, ``log``: its size; ``gerr``: its size and its relevant
    items), so the expectation runs over the ``2**m`` sets, not the ``m!``
    rankings: the chance ``P(S)`` that the first ``|S|`` items are ``S``
    follows ``P(S) = sum_j P(S - j) w_j / W(not (S - j))``, and item ``i``'s
    exposure is ``sum_(S not holding i) P(S) f(S) w_i / W(not S)``, ``W`` the
    weights' sum (``m 2**m`` terms a query).  Ratios of weights are taken in
    log space (``w_j / W(T) = exp(s_j - logsumexp(s over T))`` with ``j`` in
    ``T``: an exponent <= 0), so scores far apart neither overflow nor leave
    ``0 / 0``.
    """
    score = np.asarray(score, dtype=np.float64)
    n_groups, m = score.shape
    s = score - score.max(axis=1, keepdims=True)
    rel = np.asarray(relevant, dtype=np.int64)
    n_sets = 1 << m
    full = n_sets - 1
    lse = np.full((n_groups, n_sets), -np.inf)  # logsumexp of each set's scores
    n_rel = np.zeros((n_groups, n_sets), dtype=np.int64)
    size = np.zeros(n_sets, dtype=np.int64)
    for j in range(m):  # the sets holding item j as their last: by doubling
        lo, hi = 1 << j, 1 << (j + 1)
        lse[:, lo:hi] = np.logaddexp(lse[:, :lo], s[:, j:j + 1])
        n_rel[:, lo:hi] = n_rel[:, :lo] + rel[:, j:j + 1]
        size[lo:hi] = size[:lo] + 1
    sets = np.arange(n_sets)
    rest = lse[:, full ^ sets]  # logsumexp of the items not in each set
    prob = np.zeros((n_groups, n_sets))
    prob[:, 0] = 1.0
    for c in range(1, m + 1):  # sets of c items from those of c - 1
        layer = np.flatnonzero(size == c)
        acc = np.zeros((n_groups, layer.shape[0]))
        for j in range(m):
            holds = (layer >> j) & 1 == 1
            before = layer[holds] ^ (1 << j)
            acc[:, holds] += prob[:, before] * np.exp(s[:, j:j + 1] - rest[:, before])
        prob[:, layer] = acc
    weight = _position_weight(size, user_model, p) * prob
    if user_model == "gerr":
        weight *= (1.0 - u) ** n_rel
    weight[:, full] = 0.0  # no item left to place
    exposure = np.empty((n_groups, m))
    for i in range(m):
        without = np.flatnonzero((sets >> i) & 1 == 0)
        exposure[:, i] = (weight[:, without]
                          * np.exp(s[:, i:i + 1] - rest[:, without])).sum(axis=1)
    return exposure


def ideal_exposure(group, grade, user_model, p, u):
    """The target exposure ``e*`` of items (rows of one group together, one
    row per item): the mean exposure of the ranks its grade holds when the
    group's items are ranked by grade (``gerr``: the relevant items, grade
    > 0, stop the user with probability ``u``)."""
    order = np.lexsort((-grade, group))
    g, y = group[order], grade[order]
    flags = _starts(g)
    run, first = _run_index(flags)
    pos = (np.arange(g.shape[0]) - first[run]).astype(np.float64)
    each = _position_weight(pos, user_model, p)
    if user_model == "gerr":
        n_rel = np.bincount(run, weights=y > 0)[run]
        each = each * (1.0 - u) ** np.minimum(pos, n_rel)
    level, _ = _run_index(_starts(g, y))
    mean = np.bincount(level, weights=each) / np.bincount(level)
    out = np.empty(g.shape[0])
    out[order] = mean[level]
    return out


def _position_weight(pos, user_model, p):
    """The exposure of 0-based rank ``pos`` that depends on the rank alone:
    ``1 / log2(pos + 2)`` (``"log"``, DCG's discount), else ``p**pos``."""
    if user_model == "log":
        return 1.0 / np.log2(pos + 2.0)
    return p ** pos


def _given(columns, name):
    return columns.get(name) is not None


def _item_rows(rg):
    """``(group, ranking, score, grade, item, item_groups, rows, per_item)``:
    the rows of one sampled ranking together in rank order, the item of each
    row (the row itself without ``items``), the input rows they are, and
    :func:`_per_item` of them (``items`` checked there)."""
    if "y_score" not in rg.columns:
        raise ValueError("expected exposure needs one row per item (the long or "
                         "2-D layout), not multiclass scores.")
    n_groups = rg.n_groups
    group = np.repeat(np.arange(n_groups), to_numpy(rg.group_size))
    score = to_numpy(rg.column("y_score")).astype(np.float64)
    grade = to_numpy(rg.column("y_true")).astype(np.float64)
    columns = rg.columns
    if _given(columns, "samples"):
        if not _given(columns, "items"):
            raise InvalidParameterError(
                "items", "is needed with samples=: the id of the item each row "
                "shows, so that an item's exposure adds up over the sampled "
                "rankings of its group.")
        sample = to_numpy(rg.column("samples"))
        # the rows of one sampled ranking together, each in rank order
        order = _pair_order(group, sample)
    else:
        sample = np.zeros(group.shape[0], dtype=np.int64)
        order = np.arange(group.shape[0])
    groups_of_items = (to_numpy(rg.column("item_groups"))
                       if _given(columns, "item_groups") else None)
    ranking = np.cumsum(_starts(group[order], sample[order])) - 1
    group = group[order]
    if groups_of_items is not None:
        groups_of_items = groups_of_items[order]
    if _given(columns, "items"):
        item = to_numpy(rg.column("items"))[order]
        per_item = _per_item(group, item, ranking, groups_of_items)
    else:  # each row its own item: rows by (group, item) are rank order
        item = np.arange(group.shape[0])
        per_item = (item, item, item)
    return (group, ranking, score[order], grade[order], item, groups_of_items,
            order, per_item)


def _per_item(group, item, ranking, groups_of_items):
    """Each row's item index (items in (group, item) order), the first row
    of each item in ``order``, and ``order`` (the rows by group, item and
    ranking); checks on the way that an item shows once in each ranking,
    and belongs to one item group (per dimension) wherever it shows (the
    rows in ``ranking`` order: a stable sort by (group, item) keeps it)."""
    order = _pair_order(group, item)
    flags = _starts(group[order], item[order])
    by_item = ranking[order]
    if np.any(~flags[1:] & (by_item[1:] == by_item[:-1])):
        raise InvalidParameterError(
            "items", "must show an item at most once in each ranking of a group "
            "(each sampled ranking, with samples=); found an item twice in one "
            "ranking.")
    if groups_of_items is not None:
        codes = groups_of_items[order]
        if np.any(~flags[1:, None] & (codes[1:] != codes[:-1])):
            raise InvalidParameterError(
                "item_groups", "must give an item one group (per dimension) in "
                "every row that shows it; found an item in two groups.")
    run = np.empty(group.shape[0], dtype=np.int64)
    run[order] = np.cumsum(flags) - 1
    return run, np.flatnonzero(flags), order


def expected_exposure(rg, measure="loss", user_model="rbp", p=0.5, u=0.5,
                      normalize=False):
    """Per group: EE-L ``||e - e*||^2``, EE-D ``||e||^2`` or EE-R ``e . e*``
    over the items (over the item groups' summed exposures of relevant items
    with ``item_groups``), optionally normalised (``rbp``, items).  Computed
    on the host (NumPy); the partials in the namespace of the input."""
    part = _expected_exposure(rg, measure, user_model, p, u, normalize)
    return Partials(asarray(rg.xp, part.value, rg.device),
                    asarray(rg.xp, part.defined, rg.device))


class ItemExposures(NamedTuple):
    """The items of a ranked input (in (group, item) order) with their
    expected exposure and target (:func:`item_exposures`)."""

    group: np.ndarray  # each item's group index (rg.labels order)
    exposure: np.ndarray
    target: np.ndarray
    grade: np.ndarray
    rank_row: np.ndarray  # one row of each item, as an index of rank order


def item_exposures(rg, user_model="rbp", p=0.5, u=0.5):
    """Each item's expected exposure ``e`` over its group's rankings and its
    target ``e*`` (see :func:`expected_exposure`)."""
    return _item_exposures(rg, user_model, p, u)[0]


def _item_exposures(rg, user_model, p, u):
    group, ranking, score, grade, item, item_groups, rows, per_item = _item_rows(rg)
    n_groups = rg.n_groups
    if _given(rg.columns, "exposure"):  # each row's exposure, already expected
        exposure = to_numpy(rg.column("exposure"))[rows]
    else:
        exposure = rank_exposure(ranking, score, grade > 0, user_model, p, u)
    # the number of sampled rankings of each group
    first_of_ranking = _starts(ranking)
    n_rankings = np.bincount(group[first_of_ranking], minlength=n_groups)
    run, firsts, order = per_item
    n_items = firsts.shape[0]
    item_group = group[order][firsts]
    e = np.bincount(run, weights=exposure, minlength=n_items) / n_rankings[item_group]
    item_grade = grade[order][firsts]
    lo = np.full(n_items, np.inf)
    hi = np.full(n_items, -np.inf)
    np.minimum.at(lo, run, grade)
    np.maximum.at(hi, run, grade)
    if np.any(lo != hi):
        raise ValueError("y_true must give an item one grade in every sampled "
                         "ranking of its group (items=), found two grades for "
                         "one item.")
    target = ideal_exposure(item_group, item_grade, user_model, p, u)
    items = ItemExposures(item_group, e, target, item_grade, rows[order][firsts])
    return items, (group, ranking, score, item_groups, run, firsts, order,
                   n_rankings)


def _expected_exposure(rg, measure, user_model, p, u, normalize):
    items, rest = _item_exposures(rg, user_model, p, u)
    group, ranking, score, item_groups, run, firsts, order, n_rankings = rest
    item_group, e, target, item_grade = items[:4]
    n_groups = rg.n_groups
    if item_groups is not None:
        return _group_measure(run, firsts, order, item_group, item_grade,
                              item_groups, e, target, n_groups, measure,
                              normalize)
    d = np.bincount(item_group, weights=e * e, minlength=n_groups)
    r = np.bincount(item_group, weights=e * target, minlength=n_groups)
    t = np.bincount(item_group, weights=target * target, minlength=n_groups)
    value = {"disparity": d, "relevance": r, "loss": d - 2 * r + t}[measure]
    defined = np.ones(n_groups, dtype=bool)
    if normalize:
        value, defined = _normalized(measure, user_model, p, d, r, t, item_group,
                                     target, score, ranking, group, n_rankings,
                                     n_groups)
    return Partials(value, defined)


def _group_measure(run, firsts, order, item_group, item_grade, item_groups, e,
                   target, n_groups, measure, normalize):
    if normalize:
        raise InvalidParameterError(
            "normalize", "is not available with item_groups: the bounds of the "
            "group measures are not known in closed form (expeval's are loose, "
            "and its normalised group relevance is 1 for any input).")
    dims = item_groups[order][firsts]  # (n_items, n_dims)
    n_dims = dims.shape[1]
    relevant = item_grade > 0
    key_group = np.repeat(item_group, n_dims)
    key = dims.reshape(-1)
    weight_e = np.repeat(np.where(relevant, e, 0.0), n_dims)
    weight_t = np.repeat(np.where(relevant, target, 0.0), n_dims)
    pair = _pair_order(key_group, key)
    flags = _starts(key_group[pair], key[pair])
    index = np.empty(key.shape[0], dtype=np.int64)
    index[pair] = np.cumsum(flags) - 1
    n_pairs = int(flags.sum())
    eg = np.bincount(index, weights=weight_e, minlength=n_pairs)
    tg = np.bincount(index, weights=weight_t, minlength=n_pairs)
    owner = key_group[pair][flags]
    d = np.bincount(owner, weights=eg * eg, minlength=n_groups)
    r = np.bincount(owner, weights=eg * tg, minlength=n_groups)
    t = np.bincount(owner, weights=tg * tg, minlength=n_groups)
    value = {"disparity": d, "relevance": r, "loss": d - 2 * r + t}[measure]
    return Partials(value, np.ones(n_groups, dtype=bool))


def _normalized(measure, user_model, p, d, r, t, item_group, target, score,
                ranking, group, n_rankings, n_groups):
    """The measure between its exact bounds over every policy on the group's
    items (rbp, log; each sampled ranking ranks every item of its group)."""
    if user_model == "gerr":
        raise InvalidParameterError(
            "normalize", "is available with user_model='rbp' or 'log' only: under "
            "'gerr' the exposure of a rank depends on the items above it, and the "
            "bounds over all policies have no closed form.")
    n_items = np.bincount(item_group, minlength=n_groups).astype(np.float64)
    rows = np.bincount(ranking[score > -np.inf], minlength=ranking.max() + 1 if
                       ranking.shape[0] else 0)
    per_ranking_items = n_items[group[_starts(ranking)]]
    if not np.array_equal(rows, per_ranking_items):
        raise InvalidParameterError(
            "normalize", "needs every (sampled) ranking to rank every item of its "
            "group once (the re-ranking setting of the bounds); some ranking "
            "leaves an item out or repeats one.")
    # each group's ranks 0 .. n - 1, the items by ascending target
    order = np.lexsort((target, item_group))
    flags = _starts(item_group[order])
    run = np.cumsum(flags) - 1
    pos = (np.arange(order.shape[0]) - np.flatnonzero(flags)[run]).astype(float)
    w = _position_weight(pos, user_model, p)
    owner = item_group[order]
    # disparity: a deterministic ranking (the most: every one the same, the
    # exposure of a rank depending on the rank alone), a uniform policy (the
    # least: every item the mean exposure)
    d_hi = np.bincount(owner, weights=w * w, minlength=n_groups)
    d_lo = np.bincount(owner, weights=w, minlength=n_groups) ** 2 / np.maximum(
        n_items, 1)
    # relevance: the ideal ranking (the most, ||e*||^2), the reverse (the
    # least, by the rearrangement inequality)
    r_lo = np.bincount(owner, weights=w * target[order], minlength=n_groups)
    r_hi = t
    with np.errstate(divide="ignore", invalid="ignore"):
        if measure == "disparity":
            value, span = (d - d_lo) / (d_hi - d_lo), d_hi - d_lo
        elif measure == "relevance":
            value, span = (r - r_lo) / (r_hi - r_lo), r_hi - r_lo
        else:
            span = d_hi - 2 * r_lo + t  # the reverse ranking: the farthest
            value = (d - 2 * r + t) / span
    defined = span > 1e-15 * np.maximum(d_hi, 1e-300)
    return np.where(defined, value, 0.0), defined


#: FairRankTune's ways of combining the groups' mean attention (``combo``).
FAIRRANKTUNE_DISTANCES = ("MinMaxRatio", "MaxMinRatio", "MaxMinDiff",
                          "MaxAbsDiff", "MeanAbsDev", "LTwo", "Variance")


def _attention(pos, convention, p):
    """The attention of 0-based rank ``pos``: TREC Fair Ranking's
    ``1 / log2(max(rank, 2))`` (1-based rank), or FairRankTune's geometric
    ``100 p (1 - p)**pos``."""
    if convention == "trec2022":
        return 1.0 / np.log2(np.maximum(pos + 1.0, 2.0))
    return 100.0 * p * (1.0 - p) ** pos


def awrf(rg, variant="trec2022", p=0.5, distance=None, target=None):
    """Attention-weighted rank fairness per group (query); ``variant``: the
    public function's ``convention``.  Without ``item_groups`` each item is
    its own group.  Computed on the host (NumPy); the partials in the
    namespace of the input."""
    part = _awrf(rg, variant, p, distance, target)
    return Partials(asarray(rg.xp, part.value, rg.device),
                    asarray(rg.xp, part.defined, rg.device))


def _awrf(rg, variant, p, distance, target):
    convention = variant
    if convention == "trec2022" and distance not in (None, "js"):
        raise InvalidParameterError(
            "distance", f"must be 'js' (or None) with convention='trec2022' (1 - "
            f"the Jensen-Shannon divergence), got {distance!r}.")
    if convention == "fairranktune":
        distance = "MinMaxRatio" if distance is None else distance
        if distance not in FAIRRANKTUNE_DISTANCES:
            raise InvalidParameterError(
                "distance", f"must be one of {', '.join(FAIRRANKTUNE_DISTANCES)} "
                f"with convention='fairranktune', got {distance!r}.")
        if target is not None:
            raise InvalidParameterError(
                "target", "is not used by convention='fairranktune' (it compares "
                "the groups' mean attention with each other).")
    if "y_score" not in rg.columns:
        raise ValueError("AWRF needs one row per item (the long or 2-D layout), "
                         "not multiclass scores.")
    group, ranking, score, _, item, item_groups, _, per_item = _item_rows(rg)
    if target is not None and item_groups is None:
        raise InvalidParameterError(
            "target", "needs item_groups= (the target shares of item groups).")
    n_groups = rg.n_groups
    n = group.shape[0]
    flags = _starts(ranking)
    run, first = _run_index(flags)
    pos = (np.arange(n) - first[run]).astype(np.float64)
    each = _attention(pos, convention, p)
    # tied items share their ranks' attention (the mean over their orders)
    block, _ = _run_index(_starts(ranking, score))
    att = (np.bincount(block, weights=each) / np.bincount(block))[block]
    att = np.where(score > -np.inf, att, 0.0)
    # each row's (group, cell): its item group's code (one dimension: the
    # function forms the intersections of several), or its item
    if item_groups is None:
        cell = item
    elif item_groups.shape[1] == 1:
        cell = item_groups[:, 0]
    else:  # several dimensions (a report's column): their intersections
        cell = np.unique(item_groups, axis=0, return_inverse=True)[1].reshape(-1)
    order = _pair_order(group, cell)
    starts = _starts(group[order], cell[order])
    pair = np.empty(n, dtype=np.int64)
    pair[order] = np.cumsum(starts) - 1
    n_pairs = int(starts.sum())
    owner = group[order][starts]
    pair_cell = cell[order][starts]
    total = np.bincount(pair, weights=att, minlength=n_pairs)
    if convention == "fairranktune":
        # each item once per pair
        _, firsts, by_item = per_item
        n_items = np.bincount(pair[by_item][firsts], minlength=n_pairs)
        return _combined(total / n_items, owner, n_groups, distance)
    group_total = np.bincount(owner, weights=total, minlength=n_groups)
    share = total / np.maximum(group_total[owner], 1e-300)
    if target is None:
        goal = 1.0 / np.bincount(owner, minlength=n_groups)[owner]
        absent = np.zeros(n_groups)
    else:
        # (the shares of the target's whole mapping: those of absent groups
        # make up the rest of 1)
        shares = np.asarray(target, dtype=np.float64)
        goal = shares[pair_cell]
        # target groups without an item in the query: share 0, so that their
        # terms of the divergence are t log(t / (t / 2)) = t log 2
        absent = (1.0 - np.bincount(owner, weights=goal, minlength=n_groups))
        absent = np.maximum(absent, 0.0) * np.log(2.0)
    mid = (share + goal) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = (np.where(share > 0, share * np.log(share / mid), 0.0)
                 + np.where(goal > 0, goal * np.log(goal / mid), 0.0))
    js = (np.bincount(owner, weights=terms, minlength=n_groups) + absent) / 2
    defined = group_total > 0
    return Partials(np.where(defined, 1.0 - js, 0.0), defined)


def _combined(mean, owner, n_groups, distance):
    """FairRankTune's meta-metric of the groups' mean attention (``combo``)
    over the item groups of each query (``owner``: each pair's query)."""
    count = np.bincount(owner, minlength=n_groups)
    lo = np.full(n_groups, np.inf)
    hi = np.full(n_groups, -np.inf)
    np.minimum.at(lo, owner, mean)
    np.maximum.at(hi, owner, mean)
    centre = np.bincount(owner, weights=mean, minlength=n_groups) / np.maximum(
        count, 1)
    dev = np.abs(mean - centre[owner])
    big = np.zeros(n_groups)
    np.maximum.at(big, owner, dev)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = {
            "MinMaxRatio": lambda: lo / hi,
            "MaxMinRatio": lambda: hi / lo,
            "MaxMinDiff": lambda: hi - lo,
            "MaxAbsDiff": lambda: big,
            "MeanAbsDev": lambda: np.bincount(owner, weights=dev,
                                              minlength=n_groups) / count,
            "LTwo": lambda: np.sqrt(np.bincount(owner, weights=mean * mean,
                                                minlength=n_groups)),
            "Variance": lambda: np.bincount(owner, weights=dev * dev,
                                            minlength=n_groups) / count,
        }[distance]()
    defined = np.isfinite(value) & (count > 0)
    return Partials(np.where(defined, value, 0.0), defined)
