"""The per-group statistics the compiled pass computes itself.

A metric's registry entry names its statistic (``MetricSpec.native``); the
pipeline asks a ranked input for it (:meth:`RankedGroups.native_stat`) with
the metric's checked options, and gets ``(value, defined, stats)`` -- the
fields of the metric's ``Partials``, as raw arrays -- or None, when the
compiled pass does not compute that statistic with those options (the
metric's kernel then runs on the blocks).  The values are those of the
kernels (``_metrics/_kernels.py``, ``_ctr_kernels.py``), written group by
group in ``_group_kernels.pxd``; the test suites run every metric through
both.

==========  ====================================  ===================
name        options                               kernel
==========  ====================================  ===================
auc         (none)                                ``gauc``
ap          ``k``, ``k_denominator``              ``average_precision``
rr          ``k``                                 ``reciprocal_rank``
precision   ``k``, ``k_denominator``              ``precision_at_k``
recall      ``k``                                 ``recall_at_k``
ndcg        ``k``, ``gain`` (linear, exponential)  ``ndcg``
success     ``k``                                 ``success_at_k``
log_loss    (none)                                ``log_loss``
ne          ``negative_sampling_rate``            ``normalized_entropy``
pcoc        (none)                                ``calibration_ratio``
ece         ``n_bins``, ``strategy``, ``edges``   ``expected_calibration_error``
==========  ====================================  ===================
"""

import numpy as np

from ._ranked import discount_cumsum

__all__ = ["Plan", "Natives", "is_ctr", "plan", "supported"]

# the kinds of _group_kernels.pxd
_KINDS = {"auc": 1, "ap": 2, "rr": 3, "precision": 4, "recall": 4, "ndcg": 5,
          "success": 6, "log_loss": 10, "ne": 11, "pcoc": 12, "ece": 13}
_N_STATS = {"precision": 2, "recall": 2, "log_loss": 2, "ne": 3, "pcoc": 2}


def is_ctr(name):
    """Whether ``name`` is computed from the rows (no ranking)."""
    return _KINDS[name] >= 10


def _key(name, options):
    return name, tuple(sorted(options.items()))


def _cutoff(options):
    k = options.get("k")
    return -1 if k is None else int(k)


def _request(name, options, max_size):
    """``(kind, k, option, params, n_stats)`` of one statistic, or None."""
    kind = _KINDS.get(name)
    if kind is None:
        return None
    k, opt, params, n_stats = _cutoff(options), 0, (), _N_STATS.get(name, 0)
    if name == "ap":
        opt = ("min", "relevant", "hits").index(options["k_denominator"])
    elif name == "precision":
        opt = ("k", "retrieved").index(options["k_denominator"])
    elif name == "recall":
        opt = 2
    elif name == "ndcg":
        if options["gain"] not in ("linear", "exponential"):
            return None
        opt = options["gain"] == "exponential"
        params = discount_cumsum(max(max_size, 1), None if k < 0 else k)
    elif name == "ne":
        rate = options.get("negative_sampling_rate")  # (the pipeline recalibrates)
        params = () if rate is None else (rate,)
    elif name == "ece":
        n_bins = options["n_bins"]
        edges = options["edges"]
        if edges is None:
            edges = np.linspace(0.0, 1.0, n_bins + 1)
        params = np.asarray(edges, dtype=np.float64)[1:-1]
        n_stats = 3 * n_bins
    return kind, k, int(opt), np.asarray(params, dtype=np.float64), n_stats


def supported(name, options):
    """Whether the compiled pass computes ``name`` with ``options``."""
    return name is not None and _request(name, options, 1) is not None


class Plan:
    """The requested statistics as the compiled pass reads them: ``req``
    (one row each: kind, k, option, first output row, parameter offset and
    length), ``params`` and the output rows."""

    def __init__(self, requests, max_size):
        rows, params, keys, seen = [], [], [], set()
        row = offset = 0
        for name, options in requests:
            key = _key(name, options)
            got = _request(name, options, max_size)
            if got is None or key in seen:
                continue
            seen.add(key)
            kind, k, opt, param, n_stats = got
            rows.append((kind, k, opt, row, offset, param.shape[0]))
            params.append(param)
            keys.append((key, row, n_stats))
            row += 2 + n_stats
            offset += param.shape[0]
        self.req = np.array(rows, dtype=np.int64).reshape(-1, 6)
        self.params = (np.concatenate(params) if params
                       else np.zeros(0, dtype=np.float64))
        self.keys = keys
        self.n_rows = row
        self.ranked = any(not is_ctr(key[0]) for key, _, _ in keys)
        self.ctr = any(is_ctr(key[0]) for key, _, _ in keys)

    def output(self, n_groups):
        """The pass's output: one row per group, its statistics side by side."""
        return np.empty((n_groups, self.n_rows))

    def split(self, out):
        """``{key: (value, defined, stats)}`` of the pass's output."""
        found = {}
        for key, row, n_stats in self.keys:
            stats = out[:, row + 2:row + 2 + n_stats].T if n_stats else None
            found[key] = (np.ascontiguousarray(out[:, row]), out[:, row + 1] > 0,
                          stats)
        return found


def plan(requests, max_size):
    """The :class:`Plan` of ``requests`` (``(name, options)`` pairs; those
    the pass does not compute are left out)."""
    return Plan(requests, max_size)


class Natives:
    """A ranked input's compiled statistics: those the pass computed, and
    (``blocks``) the means to compute others from its blocks on request."""

    def __init__(self, found, compute=None):
        self.found = found
        self.compute = compute

    def get(self, rg, name, options):
        if name is None:
            return None
        key = _key(name, options)
        if key not in self.found and self.compute is not None:
            if is_ctr(name) or _request(name, options, 1) is None:
                return None
            self.found.update(self.compute(rg, [(name, options)]))
        return self.found.get(key)
