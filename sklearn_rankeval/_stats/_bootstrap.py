"""Resampling over groups: the bootstrap and the paired randomization test.

Every average of every metric is ``finalize(S.sum(axis=1))`` for per-group
statistics ``S`` (``(n_stats, n_groups)``, zero in the groups that do not
count; see :func:`~._averages.average_terms`).  A bootstrap resample that
draws group ``g`` ``c_g`` times has the statistic ``finalize(S @ c)``, which
is exactly the metric recomputed on the resampled groups (a group drawn twice
counted twice, with its weight and its statistics): a matrix of counts ``C``
(resamples x groups) gives a whole chunk of resamples at once,
``finalize(S @ C.T)``, with no loop over groups.  The paired randomization
test swaps the two models' statistics in the groups of a 0/1 flip matrix
``F``: ``(S_B - S_A) @ F.T`` moves the swapped statistics from one model to
the other.

Everything here works from ``(GroupInfo, Partials, MetricSpec)``, so it works
the same on one call's groups, on a segment's groups and on partials
concatenated by :class:`~sklearn_rankeval.RankingAccumulator`.
"""

import contextvars
from numbers import Integral, Real

import numpy as np

from ._averages import Average, average_terms

__all__ = [
    "MAX_CELLS",
    "bootstrap_intervals",
    "bootstrap_values",
    "check_confidence",
    "check_n_resamples",
    "check_random_state",
    "percentile_interval",
    "resample_counts",
    "sign_flips",
]

#: The largest resamples x groups matrix built at once (float64: 64 MiB).
MAX_CELLS = 1 << 23


# ---------------------------------------------------------------------------
# checks
# ---------------------------------------------------------------------------
def check_confidence(confidence, name="confidence"):
    """``confidence`` is a real number strictly between 0 and 1."""
    if isinstance(confidence, (bool, np.bool_)) or not isinstance(confidence, Real):
        raise TypeError(
            f"{name} must be a number in (0, 1), got {confidence!r} of type "
            f"{type(confidence).__name__}."
        )
    if not 0.0 < confidence < 1.0:  # also rejects NaN
        raise ValueError(f"{name} must be in (0, 1), got {confidence!r}.")
    return float(confidence)


def check_n_resamples(n_resamples):
    """``n_resamples`` is an integer >= 1."""
    if (isinstance(n_resamples, (bool, np.bool_))
            or not isinstance(n_resamples, Integral)):
        raise TypeError(
            f"n_resamples must be an integer >= 1, got {n_resamples!r} of type "
            f"{type(n_resamples).__name__}."
        )
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be an integer >= 1, got {n_resamples!r}.")
    return int(n_resamples)


def check_random_state(random_state):
    """A :class:`numpy.random.Generator` from ``random_state``.

    None (fresh entropy), an int seed, a Generator (used, and advanced, as it
    is) or a legacy :class:`numpy.random.RandomState` (which seeds a new
    Generator with one draw).
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(
            random_state.randint(np.iinfo(np.int64).max, dtype=np.int64))
    if random_state is None or (isinstance(random_state, Integral)
                                and not isinstance(random_state, (bool, np.bool_))):
        if random_state is not None and random_state < 0:
            raise ValueError(
                f"random_state must be a non-negative integer, got {random_state!r}."
            )
        return np.random.default_rng(random_state)
    raise TypeError(
        f"random_state must be None, an int, a numpy Generator or a RandomState, "
        f"got {type(random_state).__name__}."
    )


# ---------------------------------------------------------------------------
# random matrices, in chunks of rows
# ---------------------------------------------------------------------------
#: A callable told the number of resamples (or sign flips) of each chunk
#: drawn, or None: the command line's progress bar sets it around a call.
resample_progress = contextvars.ContextVar("resample_progress", default=None)


def _drawn(n_rows):
    report = resample_progress.get()
    if report is not None:
        report(n_rows)


def _chunk_rows(n_rows, n_groups, max_cells):
    return max(1, min(n_rows, max_cells // max(n_groups, 1)))


def resample_counts(n_groups, n_resamples, rng, *, max_cells=MAX_CELLS):
    """Bootstrap counts, ``(start, C)`` chunks of a (n_resamples, n_groups) matrix.

    Row ``b`` counts how often each group is drawn in ``n_groups`` draws with
    replacement (a multinomial vector), from ``rng.integers(0, n_groups,
    n_groups)``: one call per row, so that the numbers do not depend on the
    chunk size.  ``C`` is a float64 buffer reused from chunk to chunk (copy it
    to keep it).
    """
    rows = _chunk_rows(n_resamples, n_groups, max_cells)
    buf = np.empty((rows, n_groups))
    for start in range(0, n_resamples, rows):
        out = buf[: min(rows, n_resamples - start)]
        for row in out:
            row[:] = np.bincount(rng.integers(0, n_groups, size=n_groups),
                                 minlength=n_groups)
        _drawn(out.shape[0])
        yield start, out


def sign_flips(n_groups, n_resamples, rng, *, exact=False, max_cells=MAX_CELLS):
    """0/1 swap matrices, ``(start, F)`` chunks: 1 where a group's models swap.

    ``exact=True`` enumerates all ``2**n_groups`` assignments (row ``i`` is the
    binary expansion of ``i``, group 0 the lowest bit; row 0 swaps nothing);
    otherwise ``n_resamples`` rows of independent fair coin flips, one
    ``rng.bytes`` call per row.
    """
    n_rows = 2 ** n_groups if exact else n_resamples
    rows = _chunk_rows(n_rows, n_groups, max_cells)
    buf = np.empty((rows, n_groups))
    bit = np.arange(n_groups)
    n_bytes = -(-n_groups // 8)
    for start in range(0, n_rows, rows):
        out = buf[: min(rows, n_rows - start)]
        if exact:
            index = np.arange(start, start + out.shape[0])
            out[:] = (index[:, None] >> bit[None, :]) & 1
        else:
            for row in out:
                bits = np.frombuffer(rng.bytes(n_bytes), dtype=np.uint8)
                row[:] = np.unpackbits(bits)[:n_groups]
        _drawn(out.shape[0])
        yield start, out


# ---------------------------------------------------------------------------
# the bootstrap
# ---------------------------------------------------------------------------
def stacked_stats(averages):
    """The statistics of several averages as one ``(n_stats, n_groups)``
    float64 array, and each average's rows in it (slices)."""
    stats = [np.asarray(a.stats, dtype=np.float64) for a in averages]
    ends = np.cumsum([st.shape[0] for st in stats])
    rows = [slice(end - st.shape[0], end) for st, end in zip(stats, ends)]
    return np.vstack(stats), rows


def bootstrap_values(averages, n_resamples, rng, *, max_cells=MAX_CELLS):
    """Bootstrap distributions of averages, ``(n_resamples, n_averages)``.

    ``averages``: :class:`~._averages.Average` objects (or one, for a 1-D
    result) over the same groups; every one is recomputed on the same
    resamples, as ``finalize`` of its resampled sums.  A resample whose
    statistics give no value (no group defining the metric was drawn) gives
    NaN.
    """
    one = isinstance(averages, Average)
    averages = [averages] if one else list(averages)
    stats, rows = stacked_stats(averages)
    out = np.empty((n_resamples, len(averages)))
    for start, counts in resample_counts(stats.shape[1], n_resamples, rng,
                                         max_cells=max_cells):
        sums = stats @ counts.T
        with np.errstate(divide="ignore", invalid="ignore"):
            for j, (avg, r) in enumerate(zip(averages, rows)):
                out[start:start + counts.shape[0], j] = avg.finalize(sums[r])
    return out[:, 0] if one else out


def percentile_interval(distribution, confidence):
    """The ``confidence`` percentile interval of each column, ignoring NaN.

    Returns ``(low, high)`` arrays (floats for a 1-D distribution): the
    ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` quantiles with
    linear interpolation (NumPy's default, as
    ``scipy.stats.bootstrap(method="percentile")``); NaN where every
    resample is NaN.
    """
    dist = np.asarray(distribution, dtype=np.float64)
    one = dist.ndim == 1
    dist = dist.reshape(dist.shape[0], -1)
    q = [(1.0 - confidence) / 2.0, (1.0 + confidence) / 2.0]
    low = np.full(dist.shape[1], np.nan)
    high = np.full(dist.shape[1], np.nan)
    finite = np.isfinite(dist)
    full = finite.all(axis=0)
    if full.any():
        low[full], high[full] = np.quantile(dist[:, full], q, axis=0)
    for j in np.flatnonzero(~full & finite.any(axis=0)):
        low[j], high[j] = np.quantile(dist[finite[:, j], j], q)
    if one:
        return float(low[0]), float(high[0])
    return low, high


def bootstrap_intervals(info, parts, parsed, *, confidence, n_resamples, rng,
                        undefined="skip"):
    """``{name: (ci_low, ci_high)}`` of each parsed metric's default average.

    ``parts`` maps each name to its per-group partials over the groups of
    ``info`` (one call, a segment, or an accumulator's concatenation); all the
    metrics share the same resamples of those groups.
    """
    averages = [average_terms(parts[name], info, spec,
                              average=spec.default_average, undefined=undefined)
                for name, spec, _ in parsed]
    dist = bootstrap_values(averages, n_resamples, rng)
    low, high = percentile_interval(dist, confidence)
    return {name: (float(lo), float(hi))
            for (name, _, _), lo, hi in zip(parsed, low, high)}
