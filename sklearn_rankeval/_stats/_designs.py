"""Designs over a complete block: every model scored on the same groups.

The input of every function here is a matrix ``x`` of shape ``(n_groups,
n_models)`` (one row per group, the block; one column per model, the
treatment) or a matrix ``d`` of per-group paired differences, in plain
NumPy.  No Python loop runs over the groups: each resample is a matrix
product or a gather over all groups at once.

* :func:`two_way_anova` -- the residual mean square of the two-way ANOVA
  without replication (models x groups), the block design of IR evaluation;
* :func:`tukey_hsd` -- Tukey's honestly significant difference on that
  residual variance (studentized range, simultaneous intervals);
* :func:`randomized_tukey` -- Sakai's randomised Tukey HSD: the models'
  labels permuted within each group, the null distribution of the largest
  absolute difference of two models' means;
* :func:`maxt` -- Westfall and Young's single-step maxT over several
  comparisons, sign flips shared by all of them.
"""

import math
from functools import lru_cache
from itertools import permutations

import numpy as np
from scipy import stats

from ._bootstrap import MAX_CELLS, _chunk_rows, _drawn, sign_flips

__all__ = ["maxt", "pair_indices", "randomized_tukey", "tukey_hsd",
           "two_way_anova"]

#: Relative tolerance of ``T* >= T`` (as ``scipy.stats.permutation_test``).
RTOL = 1e-12


def pair_indices(n_models):
    """``(a, b)`` index arrays of every pair ``a < b``, in row-major order."""
    return np.triu_indices(n_models, 1)


def two_way_anova(x):
    """Residual mean square and its degrees of freedom of the two-way ANOVA
    without replication.

    With ``n`` groups (rows) and ``k`` models (columns), the residual of
    ``x[i, j]`` is ``x[i, j] - row_mean[i] - column_mean[j] + grand_mean``;
    ``V_E = sum(residual**2) / ((n - 1)(k - 1))``.  Returns ``(V_E, df)``.
    """
    x = np.asarray(x, dtype=np.float64)
    n, k = x.shape
    resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0) + x.mean()
    df = (n - 1) * (k - 1)
    if df <= 0:
        return float("nan"), df
    return float(np.einsum("ij,ij->", resid, resid) / df), df


@lru_cache(maxsize=256)
def _q_crit(confidence, k, df):
    """The studentized range's quantile (a numerical integral of ~0.3 s:
    kept for the next metric of the same design)."""
    return float(stats.studentized_range.ppf(confidence, k, df))


def tukey_hsd(x, confidence=0.95, *, p_values=True):
    """Blocked Tukey HSD of every pair of columns of ``x``.

    For the pair ``(a, b)``: ``diff = mean(x[:, b]) - mean(x[:, a])``, the
    statistic ``q = |diff| / sqrt(V_E / n)`` referred to the studentized
    range distribution with ``k`` means and ``(n - 1)(k - 1)`` degrees of
    freedom (:func:`two_way_anova`), and the simultaneous interval
    ``diff -+ q_crit sqrt(V_E / n)``, ``q_crit`` its ``confidence`` quantile.

    Returns ``(diff, low, high, p)``, arrays over :func:`pair_indices`
    (``p`` None with ``p_values=False``: the studentized range's tail is a
    numerical integral; a pair is significant at ``1 - confidence`` exactly
    when its interval excludes 0).
    """
    x = np.asarray(x, dtype=np.float64)
    n, k = x.shape
    a, b = pair_indices(k)
    means = x.mean(axis=0)
    diff = means[b] - means[a]
    v_e, df = two_way_anova(x)
    nan = np.full(diff.shape, np.nan)
    if not np.isfinite(v_e):
        return diff, nan, nan.copy(), nan.copy()
    se = math.sqrt(v_e / n)
    if se == 0.0:
        p = np.where(diff == 0, 1.0, 0.0)
        return diff, diff.copy(), diff.copy(), p
    half = _q_crit(float(confidence), k, df) * se
    if not p_values:
        return diff, diff - half, diff + half, None
    p = stats.studentized_range.sf(np.abs(diff) / se, k, df)
    return diff, diff - half, diff + half, np.clip(p, 0.0, 1.0)


def _row_permutations(n_rows, k, n_resamples, rng, exact):
    """``(start, P)`` chunks of within-row permutations, ``P`` of shape
    ``(chunk, n_rows, k)``: all ``(k!)**n_rows`` when ``exact`` (row ``i``
    the base-``k!`` digits of ``i``, row 0 the identity), else independent
    uniform permutations of each row."""
    # the k! permutations as a table (k <= 8: at most 40,320 rows): a random
    # one is a row drawn uniformly, cheaper than an argsort of k uniforms
    table = (np.array(list(permutations(range(k))), dtype=np.intp)
             if exact or k <= 8 else None)
    total = table.shape[0] ** n_rows if exact else n_resamples
    rows = _chunk_rows(total, n_rows * k, MAX_CELLS)
    for start in range(0, total, rows):
        size = min(rows, total - start)
        if exact:
            index = np.arange(start, start + size)
            digits = (index[:, None] // table.shape[0] ** np.arange(n_rows)) \
                % table.shape[0]
            perm = table[digits]
        elif table is not None:
            perm = table[rng.integers(0, table.shape[0], size=(size, n_rows))]
        else:
            perm = np.argsort(rng.random((size, n_rows, k)), axis=2)
        _drawn(size)
        yield start, perm


def randomized_tukey(x, n_resamples, rng, confidence=0.95):
    """Randomised Tukey HSD of every pair of columns of ``x`` (Sakai).

    Under the null hypothesis that the ``k`` models are exchangeable within
    each group, the labels of each row are permuted at random; each
    permutation gives the range ``max_j m_j - min_j m_j`` of the column
    means.  The p-value of a pair is the share of permutations whose range
    is at least the pair's observed ``|diff|`` (its unadjusted p-value: the
    share whose own ``|m_b - m_a|`` is); the simultaneous interval is
    ``diff -+`` the ``confidence`` quantile of the ranges.  Only rows that
    are not constant can change a mean: when their ``(k!)**n`` permutations
    are at most ``n_resamples`` they are all enumerated (exact p-values),
    otherwise ``n_resamples`` random ones give ``(count + 1) /
    (n_resamples + 1)``.

    Returns ``(diff, low, high, p, exact, p_pair)``.
    """
    x = np.asarray(x, dtype=np.float64)
    n, k = x.shape
    a, b = pair_indices(k)
    diff = x[:, b].mean(axis=0) - x[:, a].mean(axis=0)
    moving = x[np.ptp(x, axis=1) > 0]
    m = moving.shape[0]
    size = math.factorial(k)
    exact = m * math.log(size) <= math.log(max(n_resamples, 1))
    threshold = np.abs(diff) * (1.0 - RTOL)
    count = np.zeros(diff.shape, dtype=np.int64)
    own = np.zeros(diff.shape, dtype=np.int64)
    ranges = []
    fixed = x[np.ptp(x, axis=1) == 0].sum(axis=0)  # the same in every permutation
    for _, perm in _row_permutations(m, k, n_resamples, rng, exact):
        sums = np.take_along_axis(moving[None], perm, axis=2).sum(axis=1) + fixed
        r = np.ptp(sums, axis=1) / n
        ranges.append(r)
        count += np.count_nonzero(r[:, None] >= threshold[None, :], axis=0)
        pair = np.abs(sums[:, b] - sums[:, a]) / n
        own += np.count_nonzero(pair >= threshold[None, :], axis=0)
    ranges = np.concatenate(ranges)
    total = float(ranges.shape[0])
    if exact:
        p, p_pair = count / total, own / total
    else:
        p, p_pair = (count + 1) / (total + 1.0), (own + 1) / (total + 1.0)
    half = np.quantile(ranges, confidence)
    return diff, diff - half, diff + half, p, exact, p_pair


def maxt(d, n_resamples, rng):
    """Westfall-Young single-step maxT p-values of several paired comparisons.

    ``d`` is ``(n_groups, m)``: column ``j`` the per-group differences of
    comparison ``j`` (0 where the group does not count for it).  A sign flip
    of group ``g`` negates row ``g`` of every column at once, so the joint
    dependence of the comparisons is kept.  Each column's statistic is
    ``T_j = |sum_g d_gj| / sqrt(sum_g d_gj**2)``: a flip leaves the
    denominator unchanged, so ``T_j`` is the paired t statistic's monotone
    function and the columns are on one scale.  Returns ``(p_raw,
    p_adjusted, exact)``: ``p_raw[j]`` the share of flips with ``T*_j >=
    T_j``, ``p_adjusted[j]`` the share with ``max_l T*_l >= T_j`` (both with
    the ``(count + 1) / (B + 1)`` rule when the flips are drawn; all ``2**n``
    flips of the ``n`` informative groups enumerated when ``2**n <=
    n_resamples``).  Columns that are all 0 get ``p = 1``.
    """
    d = np.asarray(d, dtype=np.float64)
    d = d[(d != 0).any(axis=1)]
    n, m = d.shape
    norm = np.sqrt(np.einsum("ij,ij->j", d, d))
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = np.where(norm > 0, d / np.where(norm > 0, norm, 1.0), 0.0)
    observed = np.abs(scaled.sum(axis=0))
    threshold = observed * (1.0 - RTOL)
    exact = n < 63 and 2 ** n <= n_resamples
    raw = np.zeros(m, dtype=np.int64)
    adj = np.zeros(m, dtype=np.int64)
    total = 0
    for _, flips in sign_flips(n, n_resamples, rng, exact=exact,
                               max_cells=MAX_CELLS):
        t = np.abs((1.0 - 2.0 * flips) @ scaled)
        top = t.max(axis=1) if m else np.zeros(t.shape[0])
        raw += np.count_nonzero(t >= threshold, axis=0)
        adj += np.count_nonzero(top[:, None] >= threshold[None, :], axis=0)
        total += t.shape[0]
    if exact:
        p_raw, p_adj = raw / float(total), adj / float(total)
    else:
        p_raw, p_adj = (raw + 1) / (total + 1.0), (adj + 1) / (total + 1.0)
    zero = norm == 0
    p_raw[zero] = 1.0
    p_adj[zero] = 1.0
    return p_raw, p_adj, exact
