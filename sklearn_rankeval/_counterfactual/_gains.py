"""The relevance estimate of each row of a click log: its gain.

Under the position-based model a row shown at position ``k`` is clicked with
probability ``theta[k] * gamma``, so ``click / theta[k]`` has expected value
``gamma``, the item's relevance: the inverse-propensity (IPS) estimate.
Every metric whose per-group value is linear in the gains is then estimated
without bias by the same metric of these gains.  Clipping the weight
``1 / theta[k]`` at ``c`` bounds the variance that small propensities bring,
at the price of a downward bias of the rows whose weight was clipped.
"""

import math
from numbers import Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core import check_option
from ._log import check_propensities

__all__ = ["ESTIMATORS", "check_clip", "propensities_of", "relevance_estimates"]

#: ``estimator=`` of :func:`counterfactual_report`.
ESTIMATORS = ("ips", "snips", "naive")


def check_clip(clip):
    """None or a finite number > 0 (the largest inverse propensity)."""
    if clip is None:
        return None
    if (isinstance(clip, (bool, np.bool_)) or not isinstance(clip, Real)
            or not math.isfinite(clip) or clip <= 0):
        raise ValueError(f"clip must be None or a finite number > 0 (the largest "
                         f"weight 1 / propensity), got {clip!r}.")
    return float(clip)


def propensities_of(propensities):
    """The propensities of a fitted :class:`PositionBiasEstimator`, or the
    array itself."""
    if hasattr(propensities, "fit") and hasattr(propensities, "get_params"):
        check_is_fitted(propensities, "propensities_")
        return propensities.propensities_
    return propensities


def relevance_estimates(clicks, positions, propensities, *, estimator, clip=None):
    """The gain of each row: ``click * min(1 / theta[position - 1], clip)``.

    ``estimator="naive"``: the clicks themselves (the propensities are still
    checked against the positions, so that every estimator accepts the same
    log).  Returns a new float64 array; the inputs are not modified.
    """
    check_option(estimator, "estimator", ESTIMATORS)
    clip = check_clip(clip)
    theta = check_propensities(propensities_of(propensities), positions)
    if estimator == "naive":
        return clicks.astype(np.float64, copy=True)
    weight = 1.0 / theta
    if clip is not None:
        weight = np.minimum(weight, clip)
    # the weight of position p at index p: one gather, no shifted copy
    gains = np.take(np.concatenate([[0.0], weight]), positions)
    return np.multiply(gains, clicks, out=gains)
