"""Risk-sensitive measures of a model against a baseline, per group.

* :func:`urisk` -- Wang, Bennett and Collins-Thompson's URisk: the mean of
  the per-group differences to the baseline with every loss weighted by
  ``1 + alpha``;
* :func:`trisk` -- Dinçer, Macdonald and Ounis' TRisk (SIGIR 2014): URisk
  over its standard error, a one-sample t statistic, with its p-value;
* :func:`georisk` -- Dinçer, Macdonald and Ounis' GeoRisk (SIGIR 2016): the
  geometric mean of a model's mean effectiveness and the normal cdf of its
  ZRisk, the risk of its per-group scores against what the set of models
  (the baseline among them) leads one to expect of each group.
"""

import math

import numpy as np
from scipy import stats

__all__ = ["georisk", "risk_terms", "trisk", "urisk"]


def risk_terms(d, alpha):
    """``d`` where ``d >= 0``, ``(1 + alpha) d`` where ``d < 0``."""
    d = np.asarray(d, dtype=np.float64)
    return np.where(d < 0, (1.0 + alpha) * d, d)


def urisk(d, alpha):
    """``URisk_alpha = (1/c) [sum_{wins} d - (1 + alpha) sum_{losses} |d|]``
    of the per-group differences ``d`` (model minus baseline) over ``c``
    groups."""
    d = np.asarray(d, dtype=np.float64)
    return float(risk_terms(d, alpha).mean()) if d.size else float("nan")


def trisk(d, alpha):
    """``(TRisk, p)``: ``URisk / (s / sqrt(c))``, ``s`` the standard
    deviation (``ddof=1``) of the risk terms of :func:`risk_terms`; ``p`` its
    two-sided p-value under Student's t with ``c - 1`` degrees of freedom
    (TRisk is the one-sample t statistic of the risk terms; ``|TRisk| > 2``
    is Dinçer et al.'s rule of thumb)."""
    r = risk_terms(d, alpha)
    c = r.shape[0]
    if c < 2:
        return float("nan"), float("nan")
    s = float(np.std(r, ddof=1))
    mean = float(r.mean())
    if s == 0.0:
        return (0.0, 1.0) if mean == 0.0 else (math.copysign(math.inf, mean), 0.0)
    t = mean / (s / math.sqrt(c))
    return t, float(2.0 * stats.t.sf(abs(t), c - 1))


def georisk(x, alpha):
    """GeoRisk of every model (column) of ``x`` ``(n_groups, n_models)``,
    scores ``>= 0``.

    ``S_i = sum_j x_ji`` (model ``i``'s total over the ``c`` groups),
    ``T_j = sum_i x_ji`` (group ``j``'s total over the models), ``N`` the
    grand total; the expected score ``e_ji = S_i T_j / N`` and ``z_ji =
    (x_ji - e_ji) / sqrt(e_ji)`` (0 where ``e_ji = 0``); ``ZRisk_i =
    sum_{z >= 0} z_ji + (1 + alpha) sum_{z < 0} z_ji`` and ``GeoRisk_i =
    sqrt(S_i / c * Phi(ZRisk_i / c))``.
    """
    x = np.asarray(x, dtype=np.float64)
    c = x.shape[0]
    s = x.sum(axis=0)
    t = x.sum(axis=1)
    total = x.sum()
    if c == 0 or total <= 0:
        return np.full(x.shape[1], np.nan)
    e = np.outer(t, s) / total
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(e > 0, (x - e) / np.sqrt(np.where(e > 0, e, 1.0)), 0.0)
    zrisk = risk_terms(z, alpha).sum(axis=0)
    return np.sqrt(s / c * stats.norm.cdf(zrisk / c))
