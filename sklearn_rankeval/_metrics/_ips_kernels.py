"""Kernels of real-valued gains: sums of ``y_true`` over ranks, no threshold.

The binary kernels of :mod:`._kernels` count relevant items (``y_true >
0``); these sum the gains themselves, so that a gain ``r`` counts ``r``
times.  They are the metrics of the relevance estimates of a click log
(``r = click / propensity``, :func:`~sklearn_rankeval.counterfactual_report`):
each per-group value is linear in the gains, so the expected value of the
estimate is the metric of the expected gains (the inverse-propensity
estimate is unbiased where the expected gain is the true relevance), and a
ratio of two such sums within a group (:func:`gain_recall`) is the
self-normalized estimate.

Ties: the expected value over the orders of the tied items.  A tie block
of ``m`` items with ``s`` items of its group above it holds ranks ``s + 1 ..
s + m``; under a uniformly random order of the block, each of its items is at
each of those ranks with probability ``1 / m``, so

* it lands in the top ``k`` with probability ``clip((k - s) / m, 0, 1)``
  (``_cutoff_fraction``), and
* its expected rank is ``s + (m + 1) / 2``.

Both are linear in the item's gain, so the block's expected contribution is
its summed gain times that probability (or rank): exact, no enumeration.
"""

from .._core import full
from .._stats import Partials
from ._kernels import _cutoff_fraction, _f, _hits_partials

__all__ = ["gain_precision", "gain_rank", "gain_recall"]


def _top_k_gain(rg, k):
    """Expected sum of the gains ranked in the top ``k`` of each group."""
    gain = _f(rg.xp, rg.block_gain_of("linear"))
    return rg.group_sum(gain * _cutoff_fraction(rg, k))


def gain_precision(rg, k=10):
    """Sum of the gains in the top ``k`` over ``k``, for every group.

    Defined for every group (0 without gain): the average over all groups
    is then linear in the gains (the unbiased IPS estimate of precision@k).
    Unretrieved items (``-inf``) are never in the top ``k``.
    """
    xp = rg.xp
    top = _top_k_gain(rg, k)
    every = full(xp, rg.n_groups, 1.0, rg.device) > 0
    return Partials(top / float(k), every)


def gain_recall(rg, k=10):
    """Sum of the gains in the top ``k`` over the sum of all the group's gains.

    Defined where the group has a positive gain; the pooled (``"micro"``)
    average is the ratio of the summed numerators and denominators.
    """
    total = rg.group_sum(_f(rg.xp, rg.block_gain_of("linear")))
    return _hits_partials(_top_k_gain(rg, k), total, rg.group_n_rel > 0)


def gain_rank(rg):
    """Sum over the items of gain times rank (ARP of Joachims et al. 2017).

    The rank is the item's 1-based position in the ranking of its group; for
    a tie block its expected value ``s + (m + 1) / 2``.  Lower is better.
    Unretrieved items (``-inf``) are ranked after the retrieved ones, as one
    tie block.  Defined for every group (0 without gain).
    """
    xp = rg.xp
    gain = _f(xp, rg.block_gain_of("linear"))
    rank = _f(xp, rg.block_start) + (rg.block_size_f + 1.0) / 2.0
    every = full(xp, rg.n_groups, 1.0, rg.device) > 0
    return Partials(rg.group_sum(gain * rank), every)
