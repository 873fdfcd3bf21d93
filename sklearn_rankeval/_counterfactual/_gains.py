"""The relevance estimate of each row of a click log: its gain.

Under the position-based model a row shown at position ``k`` is clicked with
probability ``theta[k] * gamma``, so ``click / (theta[k] / theta[1])`` has
expected value ``theta[1] * gamma``, the item's click probability at
position 1 (its relevance, when position 1 is always examined): the
inverse-propensity (IPS) estimate, with the propensities normalised to
``theta[1] == 1``.
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
from ._log import beyond, check_beyond, check_propensities

__all__ = ["ESTIMATORS", "check_clip", "position_weights", "propensities_of",
           "relevance_estimates"]

#: ``estimator=`` of :func:`counterfactual_report`, in the order of its
#: side-by-side tables.
ESTIMATORS = ("naive", "ips", "snips")


def check_clip(clip):
    """None or a finite number >= 1 (the largest inverse propensity): a
    weight below 1 would shrink even the clicks at position 1, whose
    propensity is 1."""
    if clip is None:
        return None
    if (isinstance(clip, (bool, np.bool_)) or not isinstance(clip, Real)
            or not math.isfinite(clip) or clip < 1):
        raise ValueError(f"clip must be None or a finite number >= 1 (the largest "
                         f"weight 1 / propensity; the weight of position 1 is 1), "
                         f"got {clip!r}.")
    return float(clip)


def propensities_of(propensities):
    """The propensities of a fitted :class:`PositionBiasEstimator`, or the
    array itself."""
    if hasattr(propensities, "fit") and hasattr(propensities, "get_params"):
        check_is_fitted(propensities, "propensities_")
        return propensities.propensities_
    return propensities


def position_weights(propensities, *, estimator, clip=None):
    """The weight of a click at each position: ``min(1 / theta, clip)``.

    ``estimator="naive"``: 1 at every position (the clicks themselves); the
    propensities and ``clip`` are still checked, so that every estimator
    accepts the same arguments.  Returns a new float64 array, one weight per
    propensity.
    """
    check_option(estimator, "estimator", ESTIMATORS)
    clip = check_clip(clip)
    theta = check_propensities(propensities_of(propensities))
    if estimator == "naive":
        return np.ones_like(theta)
    weight = 1.0 / theta
    return weight if clip is None else np.minimum(weight, clip)


def relevance_estimates(clicks, positions, weights):
    """The gain of each row: ``click * weights[position - 1]``.

    ``clicks`` and ``positions`` as :func:`~._log.check_log` returns them,
    ``weights`` of :func:`position_weights`; a position beyond the weights
    is a ``ValueError`` naming ``positions``.  One gather and one product
    over the rows (no loop); a new float64 array, the inputs unchanged.
    """
    check_beyond(weights.shape[0], *beyond(positions, weights.shape[0]))
    # the weight of position p at index p: one gather, no shifted copy
    gains = np.take(np.concatenate([[0.0], weights]), positions)
    return np.multiply(gains, clicks, out=gains)
