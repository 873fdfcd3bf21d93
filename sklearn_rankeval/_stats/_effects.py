"""Effect sizes, equivalence tests and the power of a paired design.

Every function takes the per-group values of one comparison (1-D arrays
over the groups where both models count) and returns plain floats; the
callers loop over comparisons (models x metrics), never over groups.

* :func:`cohen_dz` -- the paired standardised mean difference
  ``mean(d) / sd(d)`` with its noncentral-t interval;
* :func:`hedges_g_av` -- ``(mean(b) - mean(a)) / sqrt((var a + var b) / 2)``
  with Hedges' small-sample factor (Cumming 2012; Lakens 2013);
* :func:`tost` -- two one-sided paired t-tests against a margin, and the
  ``1 - 2 alpha`` interval; :func:`non_inferiority` its one side;
* :func:`paired_power` and :func:`groups_needed` -- the power of the
  two-sided paired (or two-sample) t-test and the smallest number of groups
  that reaches a target power, as Sakai's topic set size design.
"""

import math

import numpy as np
from scipy import optimize, stats

__all__ = ["cohen_dz", "groups_needed", "groups_needed_ci", "hedges_g_av",
           "non_inferiority", "paired_power", "tost"]

NAN = float("nan")


def _nct_limit(t_obs, df, tail):
    """The noncentrality ``nc`` with ``P(T >= t_obs | nc) = tail`` (the
    survival function of the noncentral t increases with ``nc``)."""
    def f(nc):
        return stats.nct.sf(t_obs, df, nc) - tail

    width = 10.0 + abs(t_obs)
    lo, hi = t_obs - width, t_obs + width
    while f(lo) > 0:
        lo -= width
    while f(hi) < 0:
        hi += width
    return optimize.brentq(f, lo, hi, xtol=1e-12)


def cohen_dz(d, confidence=0.95):
    """``(d_z, low, high)`` of the paired differences ``d``.

    ``d_z = mean(d) / sd(d)`` (``ddof=1``; Cohen 1988, Lakens 2013).  The
    interval inverts the noncentral t distribution of ``t = d_z sqrt(n)``
    with ``n - 1`` degrees of freedom (exact for normal differences): the
    limits are the ``nc / sqrt(n)`` whose upper and lower tail at ``t`` are
    ``(1 - confidence) / 2``.  NaN with fewer than 2 groups or a zero
    standard deviation (then ``d_z`` is 0 when every difference is 0).
    """
    d = np.asarray(d, dtype=np.float64)
    n = d.shape[0]
    if n < 2:
        return NAN, NAN, NAN
    sd = float(np.std(d, ddof=1))
    mean = float(np.mean(d))
    if sd == 0.0:
        return (0.0, 0.0, 0.0) if mean == 0.0 else (NAN, NAN, NAN)
    dz = mean / sd
    t_obs = dz * math.sqrt(n)
    tail = (1.0 - confidence) / 2.0
    low = _nct_limit(t_obs, n - 1, tail)
    high = _nct_limit(t_obs, n - 1, 1.0 - tail)
    return dz, low / math.sqrt(n), high / math.sqrt(n)


def hedges_g_av(a, b):
    """Hedges' ``g_av`` of ``b`` against ``a`` (paired samples of size n):
    ``(mean(b) - mean(a)) / sqrt((var(a) + var(b)) / 2)`` times
    ``1 - 3 / (4 (2 n) - 9)`` (as ``pingouin.compute_effsize(b, a,
    paired=True, eftype="hedges")``).  NaN with fewer than 2 groups or a
    zero average variance."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    n = a.shape[0]
    if n < 2:
        return NAN
    s = math.sqrt((np.var(a, ddof=1) + np.var(b, ddof=1)) / 2.0)
    if s == 0.0:
        return NAN
    return float((b.mean() - a.mean()) / s * (1.0 - 3.0 / (4.0 * 2 * n - 9.0)))


def _mean_se(d):
    d = np.asarray(d, dtype=np.float64)
    n = d.shape[0]
    return n, float(np.mean(d)), float(np.std(d, ddof=1)) / math.sqrt(n)


def _one_sided(mean, se, shift, df, upper):
    """p of the one-sided t-test of ``mean - shift`` (``upper``: H1 mean >
    shift)."""
    if se == 0.0:
        gap = mean - shift
        return 0.0 if (gap > 0 if upper else gap < 0) else 1.0
    t = (mean - shift) / se
    return float(stats.t.sf(t, df) if upper else stats.t.cdf(t, df))


def tost(d, margin, alpha=0.05):
    """Paired TOST of ``|mean(d)| < margin``: ``(p, low, high)``.

    ``p = max(p_lower, p_upper)``: the one-sided paired t-tests of
    ``H0: mean <= -margin`` and ``H0: mean >= margin`` (Schuirmann 1987),
    with ``n - 1`` degrees of freedom; ``(low, high)`` is the ``1 - 2
    alpha`` t interval of the mean difference, inside ``(-margin, margin)``
    exactly when ``p < alpha``.
    """
    n, mean, se = _mean_se(d)
    if n < 2:
        return NAN, NAN, NAN
    p = max(_one_sided(mean, se, -margin, n - 1, True),
            _one_sided(mean, se, margin, n - 1, False))
    half = stats.t.ppf(1.0 - alpha, n - 1) * se
    return p, mean - half, mean + half


def non_inferiority(d, margin):
    """One-sided paired t-test of ``H0: mean(d) <= -margin``: its p-value."""
    n, mean, se = _mean_se(d)
    if n < 2:
        return NAN
    return _one_sided(mean, se, -margin, n - 1, True)


def paired_power(effect, n, alpha=0.05, design="paired"):
    """Power of the two-sided t-test at the standardised effect ``effect``.

    ``"paired"``: the one-sample t-test of ``n`` differences, ``df = n - 1``
    and noncentrality ``effect sqrt(n)``; ``"unpaired"``: the two-sample
    test with ``n`` groups in each arm, ``df = 2 n - 2``, noncentrality
    ``effect sqrt(n / 2)``.  Power ``= P(T > c) + P(T < -c)`` under the
    noncentral t, ``c`` the ``1 - alpha / 2`` quantile of the central one
    (as statsmodels' ``TTestPower`` / ``TTestIndPower``).  ``n`` may be an
    array.
    """
    n = np.asarray(n, dtype=np.float64)
    if design == "paired":
        df, nc = n - 1.0, effect * np.sqrt(n)
    else:
        df, nc = 2.0 * n - 2.0, effect * np.sqrt(n / 2.0)
    crit = stats.t.ppf(1.0 - alpha / 2.0, df)
    return stats.nct.sf(crit, df, nc) + stats.nct.cdf(-crit, df, nc)


def _smallest(ok, start=2):
    """The smallest integer ``n >= start`` with ``ok(n)`` (``ok`` monotone):
    doubling, then bisection."""
    if ok(np.array([start]))[0]:
        return start
    lo, hi = start, 2 * start
    while not ok(np.array([hi]))[0]:
        lo, hi = hi, 2 * hi
        if hi > 2 ** 40:
            raise OverflowError("more than 2**40 groups would be needed")
    while hi - lo > 1:  # ok(hi), not ok(lo)
        mid = (lo + hi) // 2
        if ok(np.array([mid]))[0]:
            hi = mid
        else:
            lo = mid
    return int(hi)


def groups_needed(effect, alpha=0.05, power=0.8, design="paired"):
    """The smallest number of groups whose :func:`paired_power` at the
    standardised ``effect`` is at least ``power``."""
    return _smallest(lambda n: paired_power(effect, n, alpha, design) >= power)


def groups_needed_ci(sd, width, alpha=0.05):
    """The smallest ``n`` whose ``1 - alpha`` paired t interval is expected
    to be at most ``width`` wide: ``2 t_{1 - alpha/2, n-1} sd / sqrt(n) <=
    width`` (the CI-based topic set size design of Sakai 2016, with the
    pilot's ``sd`` in place of its expected sample value)."""
    def ok(n):
        return 2.0 * stats.t.ppf(1.0 - alpha / 2.0, n - 1) * sd / np.sqrt(n) <= width
    return _smallest(ok)
