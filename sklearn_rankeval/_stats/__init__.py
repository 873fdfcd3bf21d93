"""The statistics contract: per-group partials, every average, the bootstrap.

* :mod:`._averages` -- :class:`Partials` (a metric's per-group values and
  additive statistics), :class:`GroupInfo`, and the one rule of every
  average over groups (``finalize`` of summed statistics);
* :mod:`._bootstrap` -- resampling over groups (intervals, paired tests),
  on the same statistics.

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
    "finalize_value",
    "first_label",
    "percentile_interval",
    "plain_label",
    "ratio_of_sums",
    "resample_counts",
    "resample_progress",
    "sign_flips",
    "stacked_stats",
    "summed",
]
