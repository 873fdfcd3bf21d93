"""The per-group statistics the compiled pass computes itself.

The engine knows no metric: a metric's registry entry declares the statistic
of the compiled pass that equals its kernel, as a :class:`Statistic` (the
kernel code of ``_group_kernels.pxd``, the cutoff, the option and
parameters as the kernel reads them, and how many additive statistics it
writes), and the pipeline hands the engine those records.  A ranked input
(:meth:`RankedGroups.native_stat`) answers a record with ``(value, defined,
stats)`` -- the fields of the metric's ``Partials``, as raw arrays -- or
None, when the compiled pass did not compute it (the metric's kernel then
runs).  The values are those of the kernels (``_metrics/_kernels.py``,
``_ctr_kernels.py``), written group by group in ``_group_kernels.pxd``; the
test suites run every metric through both.
"""

from typing import NamedTuple

import numpy as np

from ._ranked import discount_cumsum

__all__ = ["Natives", "Plan", "Statistic", "plan"]


class Statistic(NamedTuple):
    """One statistic of the compiled pass, as a metric's registry entry
    declares it (hashable: the key of its result).

    Attributes
    ----------
    kernel : str
        The kernel's code in ``_group_kernels.pxd`` (``_grouped.KERNELS``).
    rows : bool
        Whether the kernel reads each group's rows unranked (the CTR
        statistics) rather than its tie blocks.
    n_stats : int
        The additive statistics written after the value and its definedness
        (the metric's pooled statistics).
    k : int
        The cutoff, -1 for none.
    option : int
        The kernel's one option, encoded by the entry (AP's denominator,
        the hits' denominator, NDCG's exponential gain).
    params : tuple of float
        The kernel's parameters (ECE's inner bin edges).
    discounts : bool
        Whether the kernel reads the cumulative DCG discounts of ranks
        ``1 ..`` the largest group, cut at ``k`` (computed by the engine,
        which knows the group sizes).
    """

    kernel: str
    rows: bool = False
    n_stats: int = 0
    k: int = -1
    option: int = 0
    params: tuple = ()
    discounts: bool = False


class Plan:
    """The requested statistics as the compiled pass reads them: ``req``
    (one row each: kernel code, k, option, first output row, parameter
    offset and length, number of statistics), ``params`` and the output
    rows.  ``codes``: the kernel codes by name (``_grouped.KERNELS``)."""

    def __init__(self, requests, max_size, codes):
        rows, params, keys = [], [], []
        row = offset = 0
        for stat in dict.fromkeys(s for s in requests if s is not None):
            param = np.asarray(stat.params, dtype=np.float64)
            if stat.discounts:
                param = discount_cumsum(max(max_size, 1),
                                        None if stat.k < 0 else stat.k)
            rows.append((codes[stat.kernel], stat.k, stat.option, row, offset,
                         param.shape[0], stat.n_stats))
            params.append(param)
            keys.append((stat, row))
            row += 2 + stat.n_stats
            offset += param.shape[0]
        self.req = np.array(rows, dtype=np.int64).reshape(-1, 7)
        self.params = (np.concatenate(params) if params
                       else np.zeros(0, dtype=np.float64))
        self.keys = keys
        self.n_rows = row
        self.ranked = any(not stat.rows for stat, _ in keys)

    def output(self, n_groups):
        """The pass's output: one row per group, its statistics side by side."""
        return np.empty((n_groups, self.n_rows))

    def split(self, out):
        """``{statistic: (value, defined, stats)}`` of the pass's output."""
        found = {}
        for stat, row in self.keys:
            n_stats = stat.n_stats
            stats = out[:, row + 2:row + 2 + n_stats].T if n_stats else None
            found[stat] = (np.ascontiguousarray(out[:, row]), out[:, row + 1] > 0,
                           stats)
        return found


def plan(requests, max_size, codes):
    """The :class:`Plan` of ``requests`` (:class:`Statistic` records; None,
    a metric without one, is left out)."""
    return Plan(requests, max_size, codes)


class Natives:
    """A ranked input's compiled statistics: those the pass computed, and
    (``compute``) the means to compute other ranked ones from its blocks on
    request."""

    def __init__(self, found, compute=None):
        self.found = found
        self.compute = compute

    def get(self, rg, stat):
        if stat is None:
            return None
        if stat not in self.found and self.compute is not None and not stat.rows:
            self.found.update(self.compute(rg, [stat]))
        return self.found.get(stat)
