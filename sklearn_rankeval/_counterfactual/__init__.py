"""Counterfactual evaluation of click logs.

* :mod:`._log` -- the arrays of a log, checked with :mod:`.._core`'s rules;
* :mod:`._estimator` -- :class:`PositionBiasEstimator`, the examination
  propensity of each position (EM under the position-based model, or the
  click-through rates of a shuffled log);
* :mod:`._gains` -- the relevance estimate of each row (click over
  propensity, clipped): the per-row gains transform;
* :mod:`._report` -- :func:`counterfactual_report`: the estimates as gains
  of the registry's metrics, through the one pipeline and the bootstrap.

The metrics themselves stay in the registry (``dcg``, ``ndcg`` and
``GAIN_METRICS``); the report's names for them are :data:`._report.REPORT_TABLE`, a
table of the one name reader.  The Spark and Dask reports
(``sklearn_rankeval._distributed``) use the same plan, checks and gains
transform in each partition.
"""

from ._estimator import PositionBiasEstimator
from ._gains import position_weights, relevance_estimates
from ._log import (
    beyond,
    check_beyond,
    check_clicks,
    check_log,
    check_repeated,
    encode_ids,
    repeated_impressions,
)
from ._report import (
    REPORT_TABLES,
    counterfactual_report,
    report_plan,
)

__all__ = [
    "REPORT_TABLES",
    "PositionBiasEstimator",
    "beyond",
    "check_beyond",
    "check_clicks",
    "check_log",
    "check_repeated",
    "counterfactual_report",
    "encode_ids",
    "position_weights",
    "relevance_estimates",
    "repeated_impressions",
    "report_plan",
]
