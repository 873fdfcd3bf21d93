"""Several runs of one model (seeds, folds): their per-group mean and the
hierarchical bootstrap over groups and runs.

* :func:`mean_partials` -- the partials of the runs' mean: each group's
  value and statistics averaged over the runs (defined where every run is);
* :func:`hierarchical_bootstrap_values` -- the bootstrap distribution of
  averages where each column may have several runs: the groups are drawn
  with replacement (the same draw for every column) and, within each draw,
  each column's runs are drawn with replacement (independently per column).
"""

import numpy as np

from ._averages import Partials
from ._bootstrap import MAX_CELLS, resample_counts

__all__ = ["hierarchical_bootstrap_values", "mean_partials"]


def mean_partials(runs):
    """The :class:`Partials` of the mean of several runs over the same groups
    (NumPy partials): ``value`` and ``stats`` averaged, ``defined`` where
    every run is defined."""
    runs = list(runs)
    defined = np.logical_and.reduce([np.asarray(p.defined, dtype=bool)
                                     for p in runs])
    values = np.mean([np.where(p.defined, p.value, 0.0) for p in runs], axis=0)
    stats = (None if runs[0].stats is None else
             np.mean([np.asarray(p.stats, dtype=np.float64) for p in runs], axis=0))
    return Partials(values, defined, stats)


def hierarchical_bootstrap_values(columns, n_resamples, rng, *,
                                  max_cells=MAX_CELLS):
    """Bootstrap distributions ``(n_resamples, n_columns)`` of averages with
    runs.

    ``columns``: for each column, the list of its runs'
    :class:`~._averages.Average` (one run: a plain bootstrap of it).  A
    resample draws the groups with replacement (counts ``C``, shared by the
    columns); a column with ``R`` runs then draws ``R`` runs with
    replacement (counts ``W``): with ``S_r C`` run ``r``'s statistics summed
    over the drawn groups, ``M`` their mean over the runs and ``D = sum_r
    W_r / R S_r C`` their mean over the drawn runs, the column's value is
    ``finalize(M + sqrt(R / (R - 1)) (D - M))``.  The factor undoes the
    ``(R - 1) / R`` by which drawing ``R`` runs from ``R`` shrinks their
    variance (few seeds: ``R = 3`` would lose a third of it); it is the
    two-stage bootstrap of Davison and Hinkley (1997, section 3.8) with
    both stages resampled and the second stage's variance adjusted.
    """
    stats = [np.stack([np.asarray(a.stats, dtype=np.float64) for a in runs])
             for runs in columns]  # (R, n_stats, n_groups) each
    n_groups = stats[0].shape[2]
    out = np.empty((n_resamples, len(columns)))
    for start, counts in resample_counts(n_groups, n_resamples, rng,
                                         max_cells=max_cells):
        chunk = counts.shape[0]
        for j, (runs, s) in enumerate(zip(columns, stats)):
            r = s.shape[0]
            sums = np.einsum("rsg,bg->rsb", s, counts)  # (R, n_stats, chunk)
            if r > 1:
                w = rng.multinomial(r, np.full(r, 1.0 / r), size=chunk) / r
                mean = sums.mean(axis=0)
                drawn = np.einsum("rsb,br->sb", sums, w)
                sums = mean + np.sqrt(r / (r - 1.0)) * (drawn - mean)
            else:
                sums = sums[0]
            with np.errstate(divide="ignore", invalid="ignore"):
                out[start:start + chunk, j] = runs[0].finalize(sums)
    return out
