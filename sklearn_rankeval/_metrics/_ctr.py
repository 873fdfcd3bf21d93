"""The public CTR metric functions: log loss, normalized entropy, PCOC, ECE, xAUC.

Each is a docstring and one call of :func:`._pipeline.compute`; their kernels
are in :mod:`._ctr_kernels`.
"""

from ._docs import fill_doc
from ._pipeline import compute
from ._registry import metric_function
from ._spec import DEFAULT

__all__ = [
    "calibration_ratio",
    "expected_calibration_error",
    "log_loss",
    "normalized_entropy",
    "xauc_score",
]


# ---------------------------------------------------------------------------
# CTR models: probabilities per group (no ranking)
# ---------------------------------------------------------------------------
@metric_function("log_loss")
@fill_doc
def log_loss(y_true, y_prob, *, groups=None, sample_weight=None, average=DEFAULT,
             pos_label=None, negative_sampling_rate=None):
    """Log loss (cross-entropy) of predicted probabilities, per group.

    .. math::

        \\mathrm{LL} = \\frac{\\sum_i w_i \\, \\mathrm{CE}_i}{\\sum_i w_i},
        \\qquad \\mathrm{CE}_i = -y_i \\log p_i - (1 - y_i) \\log(1 - p_i)

    (natural logarithm) over the rows of a group, or of all rows pooled.

    Read more in the :ref:`User Guide <ctr-log-loss>`.

    Parameters
    ----------
    %(y_true_ctr)s
    %(y_prob)s
    %(groups_ctr)s
    %(sample_weight_item)s
    %(average_ctr)s
    %(pos_label_ctr)s
    %(negative_sampling_rate)s

    Returns
    -------
    loss : float or ndarray of shape (n_groups,)
        Lower is better; 0 for probabilities 1 on every positive and 0 on
        every negative.

    See Also
    --------
    normalized_entropy : The log loss over the entropy of the base rate.
    sklearn.metrics.log_loss : The same value without groups.

    Notes
    -----
    With ``average="micro"`` (the default) the value equals
    ``sklearn.metrics.log_loss(y_true, y_prob, sample_weight=w)``, groups or
    not.  Its scorer is ``"neg_log_loss"`` (the negated value; it needs no
    ``groups``).  Every group is defined (a group of total weight 0 has none).

    References
    ----------
    .. [1] C. M. Bishop, "Pattern Recognition and Machine Learning",
       Springer, 2006, section 4.3.2 (cross-entropy error function).

    Examples
    --------
    >>> from sklearn_rankeval import log_loss
    >>> y_true = [1, 0, 0, 1, 0]
    >>> y_prob = [0.9, 0.2, 0.1, 0.4, 0.4]
    >>> groups = ["u1", "u1", "u1", "u2", "u2"]
    >>> # all rows pooled: scikit-learn's log_loss
    >>> round(log_loss(y_true, y_prob, groups=groups), 4)
    0.3722
    >>> # u2 is predicted 0.4 for a click and a non-click
    >>> log_loss(y_true, y_prob, groups=groups, average=None).round(4).tolist()
    [0.1446, 0.7136]
    """
    return _ctr_compute("log_loss", y_true, y_prob, groups, sample_weight,
                        average, pos_label,
                        negative_sampling_rate=negative_sampling_rate)


@metric_function("ne")
@fill_doc
def normalized_entropy(y_true, y_prob, *, groups=None, sample_weight=None,
                       average=DEFAULT, negative_sampling_rate=None,
                       pos_label=None):
    """Normalized entropy (NE): the log loss over the entropy of the base rate.

    .. math::

        \\mathrm{NE} = \\frac{\\sum_i w_i \\, \\mathrm{CE}_i}
        {-P \\log \\bar p - N \\log(1 - \\bar p)}, \\qquad
        P = \\sum_i w_i y_i, \\; N = \\sum_i w_i (1 - y_i), \\;
        \\bar p = \\frac{P}{P + N}

    over the rows of a group (each group with its own base rate), or of all
    rows pooled.  Below 1, the model beats predicting the base rate.

    Read more in the :ref:`User Guide <ctr-ne>`.

    Parameters
    ----------
    %(y_true_ctr)s
    %(y_prob)s
    %(groups_ctr)s
    %(sample_weight_item)s
    %(average_ctr)s
    %(negative_sampling_rate)s
    %(pos_label_ctr)s

    Returns
    -------
    ne : float or ndarray of shape (n_groups,)
        Lower is better.

    See Also
    --------
    log_loss : The numerator, per row.
    sklearn.metrics.d2_log_loss_score : ``1 - NE`` without groups.

    Notes
    -----
    The micro average (the default) equals
    ``1 - sklearn.metrics.d2_log_loss_score(y_true, y_prob, sample_weight=w)``.
    A group with one class only (no positive or no negative weight) has no
    entropy and is undefined (skipped by the other averages); the micro
    average still pools its rows.  Its scorer is ``"neg_ne"``.

    References
    ----------
    .. [1] X. He et al., "Practical Lessons from Predicting Clicks on Ads at
       Facebook", ADKDD 2014 (normalized entropy).

    Examples
    --------
    >>> from sklearn_rankeval import normalized_entropy
    >>> y_true = [1, 0, 0, 1, 0]
    >>> y_prob = [0.9, 0.2, 0.1, 0.4, 0.4]
    >>> groups = ["u1", "u1", "u1", "u2", "u2"]
    >>> round(normalized_entropy(y_true, y_prob, groups=groups), 4)
    0.553
    >>> # u2's 0.4 is close to its base rate 1/2: NE near 1
    >>> normalized_entropy(y_true, y_prob, groups=groups,
    ...                    average=None).round(4).tolist()
    [0.2272, 1.0294]
    """
    return _ctr_compute("ne", y_true, y_prob, groups, sample_weight, average,
                        pos_label, negative_sampling_rate=negative_sampling_rate)


@metric_function("pcoc")
@fill_doc
def calibration_ratio(y_true, y_prob, *, groups=None, sample_weight=None,
                      average=DEFAULT, pos_label=None, negative_sampling_rate=None):
    """Predicted over observed positives (PCOC): 1 is calibrated.

    .. math::

        \\mathrm{PCOC} = \\frac{\\sum_i w_i p_i}{\\sum_i w_i y_i}

    over the rows of a group, or of all rows pooled.  Above 1 the model
    over-predicts clicks, below 1 it under-predicts.

    Read more in the :ref:`User Guide <ctr-pcoc>`.

    Parameters
    ----------
    %(y_true_ctr)s
    %(y_prob)s
    %(groups_ctr)s
    %(sample_weight_item)s
    %(average_ctr)s
    %(pos_label_ctr)s
    %(negative_sampling_rate)s

    Returns
    -------
    pcoc : float or ndarray of shape (n_groups,)
        1 for a calibrated model; above 1 it over-predicts.

    See Also
    --------
    expected_calibration_error : Calibration bin by bin.

    Notes
    -----
    A group without a positive (``sum w y = 0``) is undefined.  PCOC is not a
    scorer: neither higher nor lower is better.

    References
    ----------
    .. [1] torchrec, ``torchrec.metrics.calibration`` (predicted CTR over
       observed CTR), https://github.com/pytorch/torchrec.

    Examples
    --------
    >>> from sklearn_rankeval import calibration_ratio
    >>> y_true = [1, 0, 0, 1, 0]
    >>> y_prob = [0.9, 0.2, 0.1, 0.4, 0.4]
    >>> groups = ["u1", "u1", "u1", "u2", "u2"]
    >>> # (0.9 + 0.2 + 0.1 + 0.4 + 0.4) / 2 clicks
    >>> calibration_ratio(y_true, y_prob, groups=groups)
    1.0
    >>> calibration_ratio(y_true, y_prob, groups=groups,
    ...                   average=None).round(4).tolist()
    [1.2, 0.8]
    """
    return _ctr_compute("pcoc", y_true, y_prob, groups, sample_weight, average,
                        pos_label,
                        negative_sampling_rate=negative_sampling_rate)


@metric_function("ece")
@fill_doc
def expected_calibration_error(y_true, y_prob, *, groups=None, sample_weight=None,
                               n_bins=DEFAULT, strategy=DEFAULT, average=DEFAULT,
                               pos_label=None,
                               negative_sampling_rate=None):
    """Expected calibration error (ECE) over bins of the predicted probability.

    .. math::

        \\mathrm{ECE} = \\sum_b \\frac{W_b}{W} \\left| \\bar p_b - \\bar y_b \\right|
        = \\frac{\\sum_b \\left| \\sum_{i \\in b} w_i p_i
        - \\sum_{i \\in b} w_i y_i \\right|}{\\sum_i w_i}

    with :math:`W_b` the weight of the rows in bin :math:`b` and
    :math:`\\bar p_b`, :math:`\\bar y_b` their weighted mean probability and
    label: the weighted gap of the reliability curve to the diagonal.

    Read more in the :ref:`User Guide <ctr-ece>`.

    Parameters
    ----------
    %(y_true_ctr)s
    %(y_prob)s
    %(groups_ctr)s
    %(sample_weight_item)s
    n_bins : int, default=10
        Number of bins.
    strategy : {'uniform', 'quantile'}, default='uniform'
        ``'uniform'``: bins of equal width on [0, 1]; ``'quantile'``: edges at
        the quantiles of all rows' ``y_prob`` (weighted with
        ``sample_weight``), the same edges for every group.
    %(average_ctr)s
    %(pos_label_ctr)s
    %(negative_sampling_rate)s

    Returns
    -------
    ece : float or ndarray of shape (n_groups,)
        Lower is better; 0 for a calibrated model.

    See Also
    --------
    CalibrationCurveDisplay : The reliability curves, with the ECE.
    sklearn.calibration.calibration_curve : The same bins, without weights.

    Notes
    -----
    Rows are binned exactly as :func:`sklearn.calibration.calibration_curve`
    bins them (``np.searchsorted(edges[1:-1], p)``: a probability on an inner
    edge joins the lower bin).  The micro average pools the bin sums of every
    group.  Its scorer is ``"neg_ece"``.

    References
    ----------
    .. [1] M. P. Naeini, G. F. Cooper and M. Hauskrecht, "Obtaining Well
       Calibrated Probabilities Using Bayesian Binning", AAAI 2015.

    Examples
    --------
    >>> from sklearn_rankeval import expected_calibration_error
    >>> y_true = [1, 0, 0, 1, 0]
    >>> y_prob = [0.9, 0.2, 0.1, 0.4, 0.4]
    >>> # bins of width 1/2: |0.1+0.2+0.4+0.4 - 1| + |0.9 - 1| over 5 rows
    >>> round(expected_calibration_error(y_true, y_prob, n_bins=2), 4)
    0.04
    """
    return _ctr_compute("ece", y_true, y_prob, groups, sample_weight, average,
                        pos_label, n_bins=n_bins, strategy=strategy,
                        negative_sampling_rate=negative_sampling_rate)


@metric_function("xauc")
@fill_doc
def xauc_score(y_true, y_score, *, groups=None, sample_weight=None,
               average=DEFAULT, undefined=None):
    """The AUC of continuous labels (watch time, GMV) within each group: xAUC.

    .. math::

        \\mathrm{xAUC}_g = \\frac{\\sum_{y_i > y_j} w_i w_j
        \\left([s_i > s_j] + \\tfrac12 [s_i = s_j]\\right)}
        {\\sum_{y_i > y_j} w_i w_j}

    over the pairs of items of group :math:`g` with different labels: the
    weighted share ordered as the labels.  With binary labels it is the
    group's ROC AUC (:func:`gauc_score`).

    Read more in the :ref:`User Guide <ctr-xauc>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_queries, n_items)
        Labels compared with each other (``>= 0``: watch time, revenue,
        grades); items with equal labels form no pair.
    %(y_score)s
    %(groups)s
    sample_weight : array-like of shape (n_samples,), default=None
        Item weights: a pair weighs ``w_i * w_j``.
    average : {'weighted', 'macro'} or None, default='weighted'
        ``'weighted'``: groups weighted by their number of rows (total sample
        weight), as GAUC; ``'macro'``: each group counts once.  None: an
        ndarray of the xAUC of every group, in the sorted order of the unique
        ids.
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        In [0, 1]; 1/2 for scores in random order.

    See Also
    --------
    gauc_score : The same with binary labels.

    Notes
    -----
    Exact in :math:`O(n \\log n)`: a weighted count of concordant pairs
    (``sklearn_rankeval._metrics._concordance``), no pair enumeration and no
    sampling.  A group whose items all have the same label has no pair and is
    undefined.  On tie-free data the value is :math:`(1 + \\tau_a) / 2` of
    Kendall's :math:`\\tau_a` between labels and scores, over the pairs with
    different labels.

    References
    ----------
    .. [1] TorchRec, ``torchrec.metrics.xauc``, https://github.com/pytorch/torchrec.

    Examples
    --------
    >>> from sklearn_rankeval import xauc_score
    >>> watch_time = [30.0, 5.0, 12.0, 0.0, 8.0, 8.0]
    >>> y_score = [0.9, 0.2, 0.4, 0.1, 0.5, 0.3]
    >>> groups = [1, 1, 1, 2, 2, 2]
    >>> # user 1: all 3 pairs in order; user 2: both pairs with different
    >>> # labels in order (the two 8s form no pair)
    >>> xauc_score(watch_time, y_score, groups=groups, average=None).tolist()
    [1.0, 1.0]
    >>> xauc_score([3, 1, 2], [0.2, 0.1, 0.3])  # 2 of 3 pairs in order
    0.6666666666666666
    """
    return compute("xauc", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average,
                   undefined=undefined)


def _ctr_compute(name, y_true, y_prob, groups, sample_weight, average, pos_label,
                 **options):
    """A CTR metric function's body: the labels read as two classes, then the
    pipeline (which checks the labels and probabilities, naming ``y_prob``)."""
    return compute(name, y_true, y_prob, groups=groups,
                   sample_weight=sample_weight, average=average,
                   score_name="y_prob", pos_label=pos_label, **options)
