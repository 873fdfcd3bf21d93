"""Counterfactual evaluation of click logs.

* :mod:`._log` -- the arrays of a log, checked with :mod:`.._core`'s rules;
* :mod:`._estimator` -- :class:`PositionBiasEstimator`, the examination
  propensity of each position (EM under the position-based model, or the
  click-through rates of a shuffled log);
* :mod:`._gains` -- the relevance estimate of each row (click over
  propensity, clipped);
* :mod:`._report` -- :func:`counterfactual_report`: the estimates as gains
  of the registry's metrics, through the one pipeline and the bootstrap.

The metrics themselves stay in the registry (``dcg``, ``ndcg`` and
``GAIN_METRICS``).
"""

from ._estimator import PositionBiasEstimator
from ._report import counterfactual_report

__all__ = ["PositionBiasEstimator", "counterfactual_report"]
