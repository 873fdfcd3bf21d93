"""F-alpha: van Rijsbergen's effectiveness measure, through scikit-learn's F-beta."""

import numpy as np
from sklearn.metrics import fbeta_score, precision_score, recall_score

from ._validation import check_alpha

__all__ = ["f_alpha_score"]


def f_alpha_score(
    y_true, y_pred, *, alpha=0.5, labels=None, pos_label=1, average="binary",
    sample_weight=None, zero_division="warn",
):
    """F-alpha: the weighted harmonic mean of precision and recall.

    .. math::

        F_\\alpha = \\frac{1}{\\alpha / P + (1 - \\alpha) / R}
                  = \\frac{(\\beta^2 + 1) P R}{\\beta^2 P + R},
        \\qquad \\beta^2 = \\frac{1}{\\alpha} - 1

    ``alpha=0.5`` is F1; larger ``alpha`` weighs precision more, ``alpha=1`` is
    precision and ``alpha=0`` recall (both exactly).

    Parameters
    ----------
    y_true : 1d array-like, or label indicator array
        Ground truth target values.
    y_pred : 1d array-like, or label indicator array
        Predicted labels, as returned by a classifier.
    alpha : float in [0, 1], default=0.5
        Weight of precision in the harmonic mean.
    labels : array-like, default=None
        As in :func:`sklearn.metrics.fbeta_score`.
    pos_label : int, float, bool or str, default=1
        As in :func:`sklearn.metrics.fbeta_score`.
    average : {'binary', 'micro', 'macro', 'weighted', 'samples'} or None, \
            default='binary'
        As in :func:`sklearn.metrics.fbeta_score`.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights.
    zero_division : {'warn', 0.0, 1.0, np.nan}, default='warn'
        As in :func:`sklearn.metrics.fbeta_score`.

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
    ``beta = sqrt(1/alpha - 1)``; the limits ``alpha=1`` and ``alpha=0`` call
    :func:`sklearn.metrics.precision_score` and
    :func:`sklearn.metrics.recall_score`, so they are exact.

    References
    ----------
    .. [1] C. J. van Rijsbergen, "Information Retrieval", 2nd ed., 1979
       (the effectiveness measure E = 1 - F_alpha).

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
    """
    alpha = check_alpha(alpha)
    kwargs = dict(labels=labels, pos_label=pos_label, average=average,
                  sample_weight=sample_weight, zero_division=zero_division)
    if alpha == 1.0:
        return precision_score(y_true, y_pred, **kwargs)
    if alpha == 0.0:
        return recall_score(y_true, y_pred, **kwargs)
    return fbeta_score(y_true, y_pred, beta=float(np.sqrt(1.0 / alpha - 1.0)),
                       **kwargs)
