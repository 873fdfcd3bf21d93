"""``counterfactual_report``: ranking metrics of a new ranker on a click log.

The log's clicks become gains (:mod:`._gains`); the gains, the new ranker's
scores and the impressions go through the one pipeline
(:func:`~sklearn_rankeval._metrics.evaluate_chunked`) as ``y_true``,
``y_score`` and ``groups``, with the registry's metrics of gains; the
averages and the intervals are the statistics contract's
(:mod:`sklearn_rankeval._stats`).
"""


import numpy as np

from .._core import check_option, validate_scores
from .._metrics import (
    GAIN_METRICS,
    METRICS,
    MetricTable,
    evaluate_chunked,
    parse_metrics,
)
from .._reports import format_report, with_intervals
from .._stats import (
    bootstrap_intervals,
    check_confidence,
    check_n_resamples,
    check_random_state,
)
from ._gains import ESTIMATORS, position_weights, relevance_estimates
from ._log import check_log

__all__ = ["OUTPUTS", "REPORT_METRICS", "REPORT_TABLE", "counterfactual_report",
           "report_plan"]

OUTPUTS = ("dict", "frame")

#: The report's metric names -> (registry entry, the estimators that read
#: it): sums of gains (``ips``: unbiased) or ratios of sums within each
#: group (``snips``: consistent); ``naive`` reads every one on raw clicks.
REPORT_METRICS = {
    "dcg": (METRICS["dcg"], ("ips", "naive")),
    "precision": (GAIN_METRICS["gain_precision"], ("ips", "naive")),
    "arp": (GAIN_METRICS["gain_rank"], ("ips", "naive")),
    "ndcg": (METRICS["ndcg"], ("snips", "naive")),
    "recall": (GAIN_METRICS["gain_recall"], ("snips", "naive")),
}


#: The report's names as a table of the one name reader (what an
#: accumulator of the report's partials reads them with).
REPORT_TABLE = MetricTable(__name__, "REPORT_TABLE",
                           {name: spec for name, (spec, _) in REPORT_METRICS.items()})


def report_plan(metrics, estimator, output):
    """The report's arguments that need no data, checked in order:
    ``(estimator, [(name, spec, options)])``, the metrics read by the
    package's one name reader over :data:`REPORT_TABLE`."""
    estimator = check_option(estimator, "estimator", ESTIMATORS)
    check_option(output, "output", OUTPUTS)
    if metrics is None:
        raise TypeError("metrics must be a metric name or a list of names, got "
                        "None.")
    parsed = parse_metrics(metrics, inputs=(REPORT_TABLE,),
                           what="counterfactual report")
    for name, _, _ in parsed:
        estimators = REPORT_METRICS[name.partition("@")[0]][1]
        if estimator not in estimators:
            kind = ("a ratio of IPS sums within each group: estimator='snips'"
                    if "snips" in estimators else
                    "a sum of IPS gains: estimator='ips'")
            raise ValueError(f"metrics: {name!r} is {kind} (or 'naive'), not "
                             f"estimator={estimator!r}.")
    return estimator, parsed


def counterfactual_report(clicks, y_score, positions, *, groups, propensities,
                          metrics=("dcg@10", "precision@10", "arp"),
                          estimator="ips", clip=None, confidence=None,
                          n_resamples=1000, random_state=None,
                          sample_weight=None, output="dict"):
    """Ranking metrics of a new ranker, estimated from a biased click log.

    Each row of the log is an item that an old ranker displayed at
    ``positions`` in an impression (``groups``); ``clicks`` says whether it
    was clicked.  Under the position-based model the click probability is
    :math:`\\theta_k \\gamma_d`, so the relevance estimate

    .. math::

        \\hat r = \\frac{\\text{click}}{\\theta_{\\text{position}}}
        \\quad (\\text{with } ``clip=c``: \\ \\text{click} \\cdot
        \\min(1 / \\theta, c))

    has expected value :math:`\\gamma_d`, the item's relevance.  The new
    ranker ranks each impression's rows by ``y_score`` and each metric is
    computed with :math:`\\hat r` as the gain:

    - ``dcg@k``: :math:`\\sum_{i \\le k} \\hat r_i / \\log_2(1 + i)`;
    - ``precision@k``: :math:`\\sum_{i \\le k} \\hat r_i / k`;
    - ``arp``: :math:`\\sum_i \\hat r_i \\cdot i`, the average rank of the
      relevant items (lower is better);
    - ``ndcg@k``: DCG@k over the DCG@k of the ideal order of the
      impression's :math:`\\hat r`;
    - ``recall@k``: :math:`\\sum_{i \\le k} \\hat r_i / \\sum_i \\hat r_i`.

    Read more in the :ref:`User Guide <counterfactual>`.

    Parameters
    ----------
    clicks : array-like of shape (n_samples,)
        1 where the displayed item was clicked, else 0.
    y_score : array-like of shape (n_samples,)
        The new ranker's score of each logged row, higher ranks first.
    positions : array-like of shape (n_samples,)
        The 1-based rank at which the old ranker displayed each row.
    groups : array-like of shape (n_samples,)
        The impression (a ranking shown once) of each row.
    propensities : PositionBiasEstimator or array-like of shape (n_positions,)
        A fitted :class:`PositionBiasEstimator`, or the examination
        propensity of positions ``1 .. n_positions`` (finite, > 0).
    metrics : str or list of str, default=("dcg@10", "precision@10", "arp")
        Names among ``"dcg"``, ``"dcg@K"``, ``"precision@K"``, ``"arp"``
        (with ``estimator='ips'``), ``"ndcg"``, ``"ndcg@K"``, ``"recall@K"``
        (with ``estimator='snips'``); every one with ``'naive'``.
    estimator : {'ips', 'snips', 'naive'}, default='ips'
        ``'ips'``: DCG, precision and ARP of the IPS gains, averaged over
        every impression: unbiased under the position-based model.
        ``'snips'``: NDCG and recall, ratios of IPS sums within each
        impression, averaged over the impressions with a click: consistent,
        not unbiased.  ``'naive'``: the clicks as gains (what a plain ranking
        metric of the log gives, biased towards the old ranker).
    clip : float, default=None
        Largest inverse propensity: each click's weight is
        ``min(1 / propensity, clip)``.  Lower variance, biased downwards for
        the positions it clips.  Ignored by ``'naive'``.
    confidence : float, default=None
        If given (in (0, 1)), a percentile bootstrap interval of each value
        at this level, from resampling whole impressions with replacement:
        each value becomes ``{"value", "ci_low", "ci_high"}``.
    n_resamples : int, default=1000
        Number of bootstrap resamples (with ``confidence``).
    random_state : int, numpy.random.Generator, RandomState or None, \
default=None
        Seed of the resampling (with ``confidence``).
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each impression, repeated on its rows (constant within a
        group).
    output : {'dict', 'frame'}, default='dict'
        ``{metric: value}`` (or ``{metric: {"value", "ci_low", "ci_high"}}``
        with ``confidence``), or a pandas DataFrame with the columns
        ``metric``, ``value`` (``ci_low``, ``ci_high``) and ``n_groups``
        (the impressions where the metric is defined).

    Returns
    -------
    report : dict or pandas.DataFrame
        The estimate of each metric.

    See Also
    --------
    PositionBiasEstimator : The propensities of a log.
    ranking_report : The same metrics of known relevance labels.
    sklearn_rankeval.spark.counterfactual_report : The same report of a log
        in a Spark DataFrame (``sklearn_rankeval.dask``: a Dask one).

    Notes
    -----
    **Unbiasedness.**  The IPS values are unbiased when the clicks follow the
    position-based model with the given propensities, every relevant item
    of an impression was displayed (an item the old ranker never showed has
    no row and counts as irrelevant), every propensity is positive, and a
    click means relevance (no trust bias: users who click at the top
    whatever they see break it).  ``clip`` trades that for variance.

    **Ties** of ``y_score`` within an impression: the expected value over
    the orders of the tied rows (each metric is linear in the gains, so the
    expectation is exact).  ``-inf`` scores are not retrieved: no gain
    within the cutoffs; ``arp`` ranks them after the others.

    **Averages.**  ``dcg``, ``precision``, ``arp``: the mean over every
    impression (0 without a click); ``ndcg``, ``recall``: the mean over the
    impressions with a click.  These are the registry's metrics of gains
    (``dcg``, ``ndcg`` and the gain metrics), computed by the same engine,
    statistics and bootstrap as :func:`ranking_report`.

    References
    ----------
    .. [1] T. Joachims, A. Swaminathan and T. Schnabel, "Unbiased
       Learning-to-Rank with Biased Feedback", WSDM 2017.
    .. [2] X. Wang, N. Golbandi, M. Bendersky, D. Metzler and M. Najork,
       "Position Bias Estimation for Unbiased Learning to Rank in Personal
       Search", WSDM 2018.
    .. [3] A. Agarwal, I. Zaitsev, X. Wang, C. Li, M. Najork and T.
       Joachims, "Estimating Position Bias without Intrusive Interventions",
       WSDM 2019.

    Examples
    --------
    >>> from sklearn_rankeval import counterfactual_report
    >>> # two impressions of three items; a click at position 3 weighs 1/0.25
    >>> clicks    = [1, 0, 1, 0, 1, 0]
    >>> positions = [1, 2, 3, 1, 2, 3]
    >>> groups    = ["a", "a", "a", "b", "b", "b"]
    >>> y_score   = [0.2, 0.5, 0.9, 0.1, 0.8, 0.8]  # the new ranker
    >>> counterfactual_report(clicks, y_score, positions, groups=groups,
    ...                       propensities=[1.0, 0.5, 0.25],
    ...                       metrics=["precision@1", "arp"])
    {'precision@1': 2.5, 'arp': 5.0}
    >>> counterfactual_report(clicks, y_score, positions, groups=groups,
    ...                       propensities=[1.0, 0.5, 0.25],
    ...                       metrics=["precision@1", "arp"], estimator="naive")
    {'precision@1': 0.75, 'arp': 2.75}
    """
    estimator, parsed = report_plan(metrics, estimator, output)
    if confidence is not None:
        confidence = check_confidence(confidence)
        n_resamples = check_n_resamples(n_resamples)
        rng = check_random_state(random_state)
    if groups is None:
        raise ValueError("groups must give the impression of each row (a ranking "
                         "shown once); got None.")
    c, pos = check_log(clicks, positions)
    y_score = validate_scores(y_score)
    if y_score.shape != c.shape:
        raise ValueError(f"y_score must have one score per row of clicks "
                         f"({c.shape[0]}), got shape {y_score.shape}.")
    weights = position_weights(propensities, estimator=estimator, clip=clip)
    gains = relevance_estimates(c, pos, weights)
    info, parts = evaluate_chunked(gains, y_score, groups=groups,
                                   sample_weight=sample_weight, parsed=parsed)
    summaries = {name: (spec.aggregate(parts[name], info,
                                       average=spec.default_average),
                        int(np.count_nonzero(parts[name].defined)))
                 for name, spec, _ in parsed}
    intervals = None
    if confidence is not None:
        intervals = bootstrap_intervals(info, parts, parsed, confidence=confidence,
                                        n_resamples=n_resamples, rng=rng)
    return format_report(with_intervals(summaries, intervals), output, digits=4)
