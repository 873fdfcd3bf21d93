"""The diversity kernels as they were in NumPy (before the compiled pass,
``_engine/_intent_kernels.pxd``): the cascade value over tied orders, ndeval's
greedy ideal and the exact ideal by branch and bound in Python, group by
group.  Kept here, unchanged, as the regression reference of the compiled
pass (tests/metrics/test_diversity_compiled.py): the same values to 1e-12 on
random instances with ties, and the same node budget semantics.  Coverage
(subtopic recall) too.
"""

from typing import NamedTuple

import numpy as np
from scipy.special import gammaln

EXACT_NODE_BUDGET = 200_000

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


class _Layout(NamedTuple):
    gid: np.ndarray       # (n,) group of each row
    starts: np.ndarray    # (n_groups,) first row of each group
    pos: np.ndarray       # (n,) 0-based rank in the group
    bfirst: np.ndarray    # (n,) first row of the row's tie block
    bsize: np.ndarray     # (n,) size of the row's tie block
    retrieved: np.ndarray  # (n,) bool


def row_layout(rows):
    """Group index, rank and tie block of each row (vectorised)."""
    sizes = np.asarray(rows.sizes, dtype=np.int64)
    n = int(sizes.sum())
    starts = np.cumsum(sizes) - sizes
    gid = np.repeat(np.arange(sizes.shape[0]), sizes)
    pos = np.arange(n) - starts[gid]
    s = np.asarray(rows.scores, dtype=np.float64)
    new = np.ones(n, dtype=bool)
    if n > 1:
        new[1:] = (s[1:] != s[:-1]) | (pos[1:] == 0)
    first_rows = np.flatnonzero(new)
    block = np.cumsum(new) - 1
    bsize = np.diff(np.append(first_rows, n))
    return _Layout(gid, starts, pos, first_rows[block], bsize[block],
                   s > -np.inf)


def _present(rows, gid, n_groups):
    """(n_groups, n_intents) bool: the intent has a relevant item in the group."""
    del gid  # the rows are group after group: a segment reduction
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


def _cut(k, pos):
    return np.ones(pos.shape, dtype=bool) if k is None else pos < k


def cascade_value(rows, *, alpha, discount, k=None, beta=None, layout=None,
                  weights=None):
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
    """
    lay = row_layout(rows) if layout is None else layout
    n_groups = rows.sizes.shape[0]
    G = np.asarray(rows.grades, dtype=np.float64)
    if weights is None:
        weights = intent_weights(rows, _present(rows, lay.gid, n_groups))
    q = 1.0 - alpha
    rel = (G > 0).astype(np.int64)
    cum = np.cumsum(rel, axis=0) - rel  # relevant rows above, whole array
    disc = DISCOUNTS[discount]
    # the rows that can add anything: retrieved, in a block that starts
    # within the cutoff
    block_pos = lay.pos - (np.arange(lay.pos.shape[0]) - lay.bfirst)
    live = np.flatnonzero(lay.retrieved & _cut(k, block_pos))
    c0 = cum[lay.bfirst[live]] - cum[lay.starts[lay.gid[live]]]  # above the block
    wg = np.zeros(G.shape)
    wg[live] = weights[lay.gid[live]] * G[live] * np.power(q, c0)
    untied = lay.bsize[live] == 1
    pos = lay.pos[live]
    d_row = np.where(untied, disc(pos, beta) if beta is not None else disc(pos),
                     0.0)
    value = np.zeros(G.shape[0])
    value[live] = (wg[live] * d_row[:, None]).sum(axis=1)
    tied = np.zeros(G.shape[0], dtype=bool)
    tied[live[~untied]] = True
    if np.any(tied):
        value = value + _tied_terms(rows, lay, tied, rel, wg, q, disc, k, beta)
    return np.bincount(lay.gid, weights=value, minlength=n_groups)


def _tied_terms(rows, lay, tied, rel, wg, q, disc, k, beta):
    """The expected terms of the rows of tie blocks (see :func:`cascade_value`)."""
    n, m_int = rel.shape
    # one (block, intent) pair per tie block with a relevant item
    firsts = np.unique(lay.bfirst[tied])
    size = lay.bsize[firsts]
    start = lay.pos[firsts]
    csum = np.concatenate([np.zeros((1, m_int), np.int64), np.cumsum(rel, axis=0)])
    r_block = csum[firsts + size] - csum[firsts]  # (n_blocks, m_int)
    b_idx, i_idx = np.nonzero(r_block > 0)
    m = size[b_idx].astype(np.float64)
    s = start[b_idx]
    kk = r_block[b_idx, i_idx] - 1  # the other relevant items
    n_other = m - 1.0
    L = m.astype(np.int64) if k is None else np.clip(k - s, 0, size[b_idx])
    kmax = int(kk.max()) if kk.size else 0
    pmf = np.zeros((b_idx.shape[0], kmax + 1))
    pmf[:, 0] = 1.0
    powers = np.power(q, np.arange(kmax + 1, dtype=np.float64))
    h = np.zeros(b_idx.shape[0])
    x = np.arange(kmax + 1, dtype=np.float64)[None, :]
    for j in range(int(L.max()) if L.size else 0):
        active = j < L
        dj = disc(s + j, beta) if beta is not None else disc(s + j)
        h += np.where(active, dj * (pmf @ powers), 0.0)
        # one more draw among the n_other - j items left
        left = n_other - j
        safe = np.where(left > 0, left, 1.0)[:, None]
        p_rel = np.clip((kk[:, None] - x) / safe, 0.0, 1.0)
        p_rel[left <= 0] = 0.0
        moved = pmf * p_rel
        pmf = pmf - moved
        pmf[:, 1:] += moved[:, :-1]
    h /= m
    H = np.zeros(r_block.shape)
    H[b_idx, i_idx] = h
    block_of_row = np.searchsorted(firsts, lay.bfirst)
    rows_tied = np.flatnonzero(tied)
    out = np.zeros(n)
    out[rows_tied] = (wg[rows_tied] * H[block_of_row[rows_tied]]).sum(axis=1)
    return out


def _priority(rows, lay):
    """Ties of a greedy step go to the larger priority (then any, same gain)."""
    if rows.priority is not None:
        return np.asarray(rows.priority, dtype=np.int64)
    G = np.asarray(rows.grades, dtype=np.float64)
    order = np.lexsort(G.T[::-1])  # lexicographic by grade vector
    prio = np.empty(G.shape[0], dtype=np.int64)
    prio[order] = np.arange(G.shape[0])
    # equal vectors share the priority of the first of them
    same = np.zeros(G.shape[0], dtype=bool)
    sorted_g = G[order]
    if G.shape[0] > 1:
        same[1:] = np.all(sorted_g[1:] == sorted_g[:-1], axis=1)
    ranks = np.cumsum(~same) - 1
    prio[order] = ranks
    return prio


def greedy_ideal(rows, *, alpha, discount, k=None, beta=None, weights=None,
                 layout=None, return_order=False):
    """ndeval's ideal: at each rank the item of largest gain given the ranks
    above (ties to the larger priority), vectorised over the groups: a loop
    over the ranks up to ``k`` (or the longest group).  The ideal of a group
    orders all its items, retrieved or not."""
    lay = row_layout(rows) if layout is None else layout
    n_groups = rows.sizes.shape[0]
    G = np.asarray(rows.grades, dtype=np.float64)
    if weights is None:
        weights = intent_weights(rows, _present(rows, lay.gid, n_groups))
    q = 1.0 - alpha
    disc = DISCOUNTS[discount]
    n = G.shape[0]
    prio = _priority(rows, lay)
    # only rows with a gain can add anything: order them within each group
    useful = np.flatnonzero((G * weights[lay.gid]).sum(axis=1) > 0)
    gid = lay.gid[useful]
    wgt = weights[gid] * G[useful]  # (u, m)
    rel = G[useful] > 0
    n_useful = np.bincount(gid, minlength=n_groups)
    depth = n_useful if k is None else np.minimum(n_useful, k)
    factor = np.ones((n_groups, G.shape[1]))  # q ** (relevant placed), per intent
    taken = np.zeros(useful.shape[0], dtype=bool)
    value = np.zeros(n_groups)
    order = np.full((n_groups, int(depth.max()) if depth.size else 0), -1)
    # candidates sorted by group then priority descending: a segment argmax
    by = np.lexsort((-prio[useful], gid))
    gid_s, wgt_s, rel_s = gid[by], wgt[by], rel[by]
    seg_starts = np.cumsum(n_useful) - n_useful
    for r in range(order.shape[1]):
        live = r < depth
        gain = np.where(taken[by], -1.0, (wgt_s * factor[gid_s]).sum(axis=1))
        best = _segment_argmax(gain, seg_starts, n_useful)
        pick = live & (n_useful > 0)
        rows_picked = best[pick]
        d = disc(np.array(r), beta) if beta is not None else disc(np.array(r))
        value[pick] += d * gain[rows_picked]
        taken[by[rows_picked]] = True
        factor[np.flatnonzero(pick)] *= np.where(rel_s[rows_picked], q, 1.0)
        order[np.flatnonzero(pick), r] = useful[by[rows_picked]]
    del n
    return (value, order) if return_order else value


def _segment_argmax(x, starts, sizes):
    """The index of the first largest value of each segment (-1 if empty)."""
    out = np.full(starts.shape[0], -1, dtype=np.int64)
    nonempty = sizes > 0
    if not np.any(nonempty):
        return out
    first = starts[nonempty]
    seg_max = np.maximum.reduceat(x, first)
    owner_max = np.repeat(seg_max, sizes[nonempty])
    index = np.where(x == owner_max, np.arange(x.shape[0]), x.shape[0])
    out[nonempty] = np.minimum.reduceat(index, first)
    return out


def _intent_bound(wgt_sorted, depth_left, t0, c, q, dvec):
    """An upper bound of what ranks ``t0..`` can still add: each intent's
    remaining grades, largest first, at the next ranks (each intent alone)."""
    total = 0.0
    for i, grades in enumerate(wgt_sorted):
        ci = q ** c[i]
        for u, g in enumerate(grades[:depth_left]):
            total += dvec[t0 + u] * g * ci
            ci *= q
    return total


def exact_ideal(rows, *, alpha, discount, k=None, beta=None, weights=None,
                layout=None, budget=None):
    """The true ideal of each group: ``(value, proven)``.

    First the greedy ideal of every group (:func:`greedy_ideal`) and, for
    every group at once, the bound of each intent alone (its grades largest
    first at the top ranks: no order does better for that intent).  Where
    they meet, greedy is optimal.  The other groups are searched one by one
    (branch and bound over the group's distinct grade vectors with their
    counts, children in the order of their gain; a subtree is cut when its
    value plus the bound of its ranks cannot beat the best order found, and
    a multiset of placed items already reached with a value at least as
    large is not searched again).  The search is exact; it stops after
    ``budget`` nodes per group (``proven`` False for that group), keeping
    the best order found, never worse than greedy.
    """
    lay = row_layout(rows) if layout is None else layout
    n_groups = rows.sizes.shape[0]
    budget = EXACT_NODE_BUDGET if budget is None else budget
    G = np.asarray(rows.grades, dtype=np.float64)
    if weights is None:
        weights = intent_weights(rows, _present(rows, lay.gid, n_groups))
    greedy = greedy_ideal(rows, alpha=alpha, discount=discount, k=k, beta=beta,
                          weights=weights, layout=lay)
    q = 1.0 - alpha
    disc = DISCOUNTS[discount]
    wg = weights[lay.gid] * G
    n_useful = np.bincount(lay.gid, weights=(wg.sum(axis=1) > 0),
                           minlength=n_groups).astype(np.int64)
    depth = n_useful if k is None else np.minimum(n_useful, k)
    n_max = int(depth.max()) if depth.size else 0
    dvec = disc(np.arange(n_max + 1), beta) if beta is not None else disc(
        np.arange(n_max + 1))
    # the per-intent bound, all groups at once: sort each intent's gains
    # within the group, largest first, and weigh the u-th by D(u) q**u
    bound = np.zeros(n_groups)
    for i in range(G.shape[1]):
        gains = wg[:, i]
        order = np.lexsort((-gains, lay.gid))
        rank_in = np.arange(G.shape[0]) - lay.starts[lay.gid[order]]
        ok = (rank_in < depth[lay.gid[order]]) & (gains[order] > 0)
        contrib = np.where(ok, gains[order] * dvec[np.minimum(rank_in, n_max)]
                           * q ** rank_in, 0.0)
        bound += np.bincount(lay.gid[order], weights=contrib, minlength=n_groups)
    value = greedy.copy()
    proven = np.ones(n_groups, dtype=bool)
    open_groups = np.flatnonzero(bound > greedy * (1 + 1e-12) + 1e-15)
    for g in open_groups:  # the search: group by group (see the docstring)
        lo, hi = lay.starts[g], lay.starts[g] + rows.sizes[g]
        gw = wg[lo:hi]
        gw = gw[gw.sum(axis=1) > 0]
        best, done = _branch_and_bound(gw, q, dvec, int(depth[g]), greedy[g],
                                       budget)
        value[g] = max(best, greedy[g])
        proven[g] = done
    return value, proven


def _branch_and_bound(wg, q, dvec, depth, incumbent, budget):
    """The largest ``sum_{r < depth} D(r) G(r)`` over orders of the rows of
    ``wg`` (weighted grades), and whether the search finished."""
    types, counts = np.unique(wg, axis=0, return_counts=True)
    types = [tuple(float(v) for v in t) for t in types]
    counts = [int(c) for c in counts]
    n_types, n_int = len(types), len(types[0]) if types else 0
    best = [incumbent]
    nodes = [0]
    seen = {}

    def bound(used, c, t0):
        left = depth - t0
        per_intent = []
        for i in range(n_int):
            gains = []
            for j in range(n_types):
                rest = counts[j] - used[j]
                if rest and types[j][i] > 0:
                    gains.extend([types[j][i]] * min(rest, left))
            gains.sort(reverse=True)
            per_intent.append(gains)
        return _intent_bound(per_intent, left, t0, c, q, dvec)

    def search(used, c, t0, value):
        nodes[0] += 1
        if nodes[0] > budget:
            return False
        if value > best[0]:
            best[0] = value
        if t0 == depth:
            return True
        key = tuple(used)
        if seen.get(key, -1.0) >= value:
            return True
        seen[key] = value
        children = []
        for j in range(n_types):
            if used[j] < counts[j]:
                gain = sum(g * q ** c[i] for i, g in enumerate(types[j]) if g > 0)
                children.append((gain, j))
        children.sort(reverse=True)
        # no item gains more later than now (gains only shrink as intents
        # are covered): the current gains, largest first, bound the ranks left
        left, u, bound_now = depth - t0, 0, 0.0
        for gain, j in children:
            for _ in range(min(counts[j] - used[j], left - u)):
                bound_now += dvec[t0 + u] * gain
                u += 1
            if u == left:
                break
        target = best[0] * (1 + 1e-12)
        if value + bound_now <= target or value + bound(used, c, t0) <= target:
            return True
        for gain, j in children:
            used[j] += 1
            c2 = [c[i] + (1 if types[j][i] > 0 else 0) for i in range(n_int)]
            ok = search(used, c2, t0 + 1, value + dvec[t0] * gain)
            used[j] -= 1
            if not ok:
                return False
        return True

    done = search([0] * n_types, [0] * n_int, 0, 0.0)
    return best[0], done


def coverage(rows, *, k, layout=None, weights=None, present=None):
    """Per group, the expected weighted share of intents with a relevant item
    in the top ``k`` (subtopic recall, I-rec), over the orders of tied items.

    An intent is missed when none of its ``R`` relevant items of a tie
    block of ``m`` crossing the cutoff (``t`` of its positions within it)
    lands there: probability ``C(m - R, t) / C(m, t)``.
    """
    lay = row_layout(rows) if layout is None else layout
    n_groups = rows.sizes.shape[0]
    if present is None:
        present = _present(rows, lay.gid, n_groups)
    if weights is None:
        weights = intent_weights(rows, present)
    rel = (np.asarray(rows.grades) > 0).astype(np.int64)
    firsts = np.flatnonzero(np.arange(lay.pos.shape[0]) == lay.bfirst)
    size = lay.bsize[firsts]
    start = lay.pos[firsts]
    ok = lay.retrieved[firsts]
    t = np.clip((size if k is None else np.minimum(size, k - start)), 0, None)
    t = np.where(ok, t, 0)
    csum = np.concatenate([np.zeros((1, rel.shape[1]), np.int64),
                           np.cumsum(rel, axis=0)])
    r_block = csum[firsts + size] - csum[firsts]
    lgam = gammaln
    # log C(m - R, t) - log C(m, t); -inf where m - R < t (surely covered)
    mr = size[:, None] - r_block
    tt = t[:, None]
    feasible = mr >= tt
    with np.errstate(invalid="ignore"):
        log_miss = np.where(
            feasible,
            lgam(np.maximum(mr, 0) + 1.0) - lgam(np.maximum(mr - tt, 0) + 1.0)
            - lgam(size[:, None] + 1.0) + lgam(size[:, None] - tt + 1.0),
            -np.inf)
    log_miss = np.where(r_block > 0, log_miss, 0.0)
    # blocks are group after group: the sum of each group's blocks
    group_first_block = np.searchsorted(firsts, lay.starts)
    per_group = np.add.reduceat(log_miss, group_first_block, axis=0)
    covered = 1.0 - np.exp(per_group)
    return (weights * np.where(present, covered, 0.0)).sum(axis=1)
