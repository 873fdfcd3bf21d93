"""F-alpha: van Rijsbergen's effectiveness measure, through scikit-learn's F-beta."""

import math
from numbers import Real

import numpy as np
from sklearn.metrics import fbeta_score, precision_score, recall_score

from .._core import check_alpha, validate_sample_weight
from ._registry import metric_function
from ._spec import DEFAULT

__all__ = ["f_alpha_score"]


class _DefaultAlpha(float):
    """The default ``alpha=0.5``, told apart from an ``alpha`` the caller gave."""

    def __repr__(self):
        return "0.5"


_DEFAULT_ALPHA = _DefaultAlpha(0.5)


def _check_beta(beta):
    """``beta`` is a real number >= 0 (``inf``: the recall)."""
    if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, Real):
        raise TypeError(
            f"beta must be a real number >= 0, got {beta!r} "
            f"of type {type(beta).__name__}."
        )
    if not beta >= 0.0:  # also rejects NaN
        raise ValueError(f"beta must be >= 0, got {beta!r}.")
    return float(beta)


@metric_function("f_alpha")
def f_alpha_score(
    y_true, y_pred, *, alpha=_DEFAULT_ALPHA, labels=None, pos_label=1,
    average=DEFAULT, sample_weight=None, zero_division="warn", beta=None,
):
    """F-alpha: the weighted harmonic mean of precision and recall.

    .. math::

        F_\\alpha = \\frac{1}{\\alpha / P + (1 - \\alpha) / R}
                  = \\frac{(\\beta^2 + 1) P R}{\\beta^2 P + R},
        \\qquad \\beta^2 = \\frac{1}{\\alpha} - 1

    ``alpha=0.5`` is F1; larger ``alpha`` weighs precision more, ``alpha=1`` is
    precision and ``alpha=0`` recall (both exactly).  ``beta`` may be given
    instead, as in :func:`sklearn.metrics.fbeta_score` (``beta=1`` is F1).

    Read more in the :ref:`User Guide <f-alpha>`.

    Parameters
    ----------
    y_true : 1d array-like, or label indicator array
        Ground truth target values.
    y_pred : 1d array-like, or label indicator array
        Predicted labels, as returned by a classifier.
    alpha : float in [0, 1], default=0.5
        Weight of precision in the harmonic mean.  Not to be given together
        with ``beta``.
    labels : array-like, default=None
        As in :func:`sklearn.metrics.fbeta_score`.
    pos_label : int, float, bool or str, default=1
        As in :func:`sklearn.metrics.fbeta_score`.
    average : {'binary', 'micro', 'macro', 'weighted', 'samples'} or None, \
            default='binary'
        As in :func:`sklearn.metrics.fbeta_score`.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights, non-negative (a ``ValueError`` otherwise).
    zero_division : {'warn', 0.0, 1.0, np.nan}, default='warn'
        As in :func:`sklearn.metrics.fbeta_score`.
    beta : float >= 0, default=None
        The F-beta parametrisation of :func:`sklearn.metrics.fbeta_score`,
        instead of ``alpha``: ``alpha = 1 / (1 + beta**2)``, so ``beta=1`` is
        F1, ``beta=2`` weighs recall more, ``beta=0`` is the precision and
        ``beta=inf`` the recall.  Giving both ``alpha`` and ``beta`` is a
        ``ValueError``.

    Returns
    -------
    f_alpha : float or ndarray of shape (n_unique_labels,)
        The F-alpha score (one per class when ``average=None``).

    See Also
    --------
    sklearn.metrics.fbeta_score : The same measure parametrised by beta.

    Notes
    -----
    Computed by :func:`sklearn.metrics.fbeta_score` with
    ``beta = sqrt(1/alpha - 1)`` (or the ``beta`` given); the limits
    ``alpha=1`` and ``alpha=0`` (``beta=0`` and ``beta=inf``) call
    :func:`sklearn.metrics.precision_score` and
    :func:`sklearn.metrics.recall_score`, so they are exact.

    References
    ----------
    .. [1] C. J. van Rijsbergen, "Information Retrieval", 2nd ed., 1979
       (the effectiveness measure E = 1 - F_alpha).
    .. [2] C. D. Manning, P. Raghavan and H. Schütze, "Introduction to
       Information Retrieval", Cambridge University Press, 2008, section 8.3
       (F with alpha and beta).

    Examples
    --------
    >>> from sklearn_rankeval import f_alpha_score
    >>> # threshold 0.5 on scores [0.7, 0.3, 0.5] for truth [T, F, F]:
    >>> # P = 1/2, R = 1
    >>> y_true, y_pred = [1, 0, 0], [1, 0, 1]
    >>> round(f_alpha_score(y_true, y_pred), 4)
    0.6667
    >>> round(f_alpha_score(y_true, y_pred, alpha=0.8), 4)
    0.5556
    >>> f_alpha_score(y_true, y_pred, alpha=1.0)
    0.5
    >>> # beta=2 (recall counts more) is alpha = 1/5
    >>> round(f_alpha_score(y_true, y_pred, beta=2.0), 4)
    0.8333
    """
    if beta is not None:
        if alpha is not _DEFAULT_ALPHA:
            raise ValueError(
                f"f_alpha_score takes alpha or beta, not both; got alpha={alpha!r} "
                f"and beta={beta!r} (alpha = 1 / (1 + beta**2))."
            )
        beta = _check_beta(beta)
    else:
        alpha = check_alpha(alpha)
        beta = None if alpha in (0.0, 1.0) else math.sqrt(1.0 / alpha - 1.0)
    if sample_weight is not None:  # the package's one rule (sklearn: the rest)
        validate_sample_weight(sample_weight, np.shape(y_true)[0], "sample")
    kwargs = dict(labels=labels, pos_label=pos_label, average=average,
                  sample_weight=sample_weight, zero_division=zero_division)
    if beta == 0.0 or (beta is None and alpha == 1.0):
        return precision_score(y_true, y_pred, **kwargs)
    if beta == math.inf or (beta is None and alpha == 0.0):
        return recall_score(y_true, y_pred, **kwargs)
    return fbeta_score(y_true, y_pred, beta=beta, **kwargs)
