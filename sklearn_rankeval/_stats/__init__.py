"""The statistics contract: per-group partials, every average, the bootstrap.

* :mod:`._averages` -- :class:`Partials` (a metric's per-group values and
  additive statistics), :class:`GroupInfo`, and the one rule of every
  average over groups (``finalize`` of summed statistics);
* :mod:`._bootstrap` -- resampling over groups (intervals, paired tests),
  on the same statistics;
* :mod:`._designs` -- the block designs over a matrix of per-group terms:
  blocked and randomised Tukey HSD, Westfall-Young maxT;
* :mod:`._effects` -- effect sizes, TOST / non-inferiority, the power of the
  paired t-test and the number of groups it needs;
* :mod:`._risk` -- URisk, TRisk and GeoRisk against a baseline;
* :mod:`._runs` -- several runs (seeds, folds) of a model: their mean
  partials and the hierarchical bootstrap over groups and runs.

Imports nothing of the package but :mod:`.._core`.
"""

from ._averages import (
    AverageRule,
    GroupInfo,
    Partials,
    aggregate,
    apply_undefined,
    average_finalize,
    average_terms,
    finalize_value,
    first_label,
    plain_label,
    ratio_of_sums,
    summed,
)
from ._bootstrap import (
    MAX_CELLS,
    bootstrap_intervals,
    bootstrap_values,
    check_confidence,
    check_n_resamples,
    check_random_state,
    percentile_interval,
    resample_counts,
    resample_progress,
    sign_flips,
    stacked_stats,
)
from ._designs import maxt, pair_indices, randomized_tukey, tukey_hsd, two_way_anova
from ._effects import (
    cohen_dz,
    groups_needed,
    groups_needed_ci,
    hedges_g_av,
    non_inferiority,
    paired_power,
    tost,
)
from ._risk import georisk, trisk, urisk
from ._runs import hierarchical_bootstrap_values, mean_partials

__all__ = [
    "MAX_CELLS",
    "AverageRule",
    "GroupInfo",
    "Partials",
    "aggregate",
    "apply_undefined",
    "average_finalize",
    "average_terms",
    "bootstrap_intervals",
    "bootstrap_values",
    "check_confidence",
    "check_n_resamples",
    "check_random_state",
    "cohen_dz",
    "finalize_value",
    "first_label",
    "georisk",
    "groups_needed",
    "groups_needed_ci",
    "hierarchical_bootstrap_values",
    "hedges_g_av",
    "maxt",
    "mean_partials",
    "non_inferiority",
    "pair_indices",
    "paired_power",
    "percentile_interval",
    "plain_label",
    "randomized_tukey",
    "ratio_of_sums",
    "resample_counts",
    "resample_progress",
    "sign_flips",
    "stacked_stats",
    "summed",
    "tost",
    "trisk",
    "tukey_hsd",
    "two_way_anova",
    "urisk",
]
