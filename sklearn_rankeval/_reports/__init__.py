"""Many metrics at once, from the one pipeline's per-group partials.

* :mod:`._report` -- ``ranking_report`` (segments, intervals);
* :mod:`._per_group` -- ``per_group_scores``;
* :mod:`._compare` -- ``compare_rankings`` (paired tests over groups);
* :mod:`._accumulate` -- ``RankingAccumulator`` (batches, windows, merges),
  its state in :mod:`._accumulator_state`;
* :mod:`._format` -- the one place a report takes its shape (text, dict,
  frames; CSV is the tidy frame written by pandas), also for the
  recommendation and counterfactual reports.
"""

from ._accumulate import RankingAccumulator
from ._compare import compare_rankings
from ._format import (
    dict_value,
    format_report,
    frame_columns,
    make_frame,
    per_group_values,
    report_table,
    tidy_frame,
    with_intervals,
)
from ._per_group import group_label, per_group_scores
from ._report import ranking_report

__all__ = [
    "RankingAccumulator",
    "compare_rankings",
    "dict_value",
    "format_report",
    "frame_columns",
    "group_label",
    "make_frame",
    "per_group_scores",
    "per_group_values",
    "ranking_report",
    "report_table",
    "tidy_frame",
    "with_intervals",
]
