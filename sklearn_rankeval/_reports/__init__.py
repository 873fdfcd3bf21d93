"""Many metrics at once, from the one pipeline's per-group partials.

* :mod:`._report` -- ``ranking_report`` (segments, intervals);
* :mod:`._per_group` -- ``per_group_scores``;
* :mod:`._compare` -- ``compare_rankings`` (paired tests over groups), its
  designs, effect sizes and margins in :mod:`._designs`;
* :mod:`._planning` -- ``topic_set_size``, ``achieved_power``;
* :mod:`._risk` -- ``risk_report`` (URisk, TRisk, GeoRisk);
* :mod:`._accumulate` -- ``RankingAccumulator`` (batches, windows, merges):
  its batches read through the input door in :mod:`._batches`, its state
  (ids seen, window, the partials it exchanges) in :mod:`._accumulator_state`;
* :mod:`._format` -- the one place a report takes its shape (text, dict,
  frames; CSV is the tidy frame written by pandas), also for the
  recommendation and counterfactual reports.
"""

from ._accumulate import RankingAccumulator
from ._compare import compare_rankings
from ._format import (
    format_report,
    with_intervals,
)
from ._per_group import group_label, per_group_scores
from ._planning import achieved_power, topic_set_size
from ._report import ranking_report
from ._risk import risk_report

__all__ = [
    "RankingAccumulator",
    "achieved_power",
    "compare_rankings",
    "format_report",
    "group_label",
    "per_group_scores",
    "ranking_report",
    "risk_report",
    "topic_set_size",
    "with_intervals",
]
