"""``counterfactual_report``: ranking metrics of a new ranker on a click log.

The log's clicks become gains (:mod:`._gains`); the gains, the new ranker's
scores and the impressions go through the one pipeline
(:func:`~sklearn_rankeval._metrics.evaluate_chunked`) as ``y_true``,
``y_score`` and ``groups``, with the registry's metrics of gains; the
averages and the intervals are the statistics contract's
(:mod:`sklearn_rankeval._stats`).  Each estimator reads its own table of
names (:data:`REPORT_TABLES`); several estimators give one table side by
side.  ``refit=True`` intervals re-estimate the propensities on each
resample (:func:`refit_intervals`).
"""

import warnings

import numpy as np
from sklearn.base import clone

from .._core import check_option, warn
from .._metrics import (
    GAIN_METRICS,
    METRICS,
    MetricTable,
    evaluate_chunked,
    parse_metrics,
)
from .._reports import format_report, with_intervals
from .._stats import (
    average_terms,
    bootstrap_intervals,
    check_confidence,
    check_n_resamples,
    check_random_state,
    percentile_interval,
    resample_counts,
)
from ._gains import ESTIMATORS, position_weights, propensities_of, relevance_estimates
from ._log import check_log, check_repeated, encode_ids, repeated_impressions

__all__ = ["DEFAULT_METRICS", "IPS_TABLE", "OUTPUTS", "RENAMED", "REPORT_TABLE",
           "REPORT_TABLES", "SNIPS_TABLE",
           "check_estimators", "counterfactual_report", "refit_intervals",
           "report_plan"]

OUTPUTS = ("dict", "frame", "text")

_DCG, _PRECISION, _RANK = (METRICS["dcg"], GAIN_METRICS["gain_precision"],
                           GAIN_METRICS["gain_rank"])
#: Each estimator's names -> registry entries.  ``ips``: sums of gains per
#: impression, averaged over every impression (unbiased); ``snips``: the
#: recall of gains pooled over the log (one ratio of two log-wide IPS sums:
#: self-normalised, consistent); ``naive``: every metric, on raw clicks.
_IPS = {"dcg": _DCG, "precision": _PRECISION, "avg_rel_rank": _RANK}
IPS_TABLE = MetricTable(__name__, "IPS_TABLE", _IPS)
SNIPS_TABLE = MetricTable(__name__, "SNIPS_TABLE",
                          {"recall": GAIN_METRICS["snips_recall"]})
#: Every name of the report (the naive estimator reads them all).
REPORT_TABLE = MetricTable(__name__, "REPORT_TABLE",
                           {**_IPS, "ndcg": METRICS["ndcg"],
                            "recall": GAIN_METRICS["gain_recall"]})
REPORT_TABLES = {"ips": IPS_TABLE, "snips": SNIPS_TABLE, "naive": REPORT_TABLE}
#: The metrics each estimator reports by default.
DEFAULT_METRICS = {
    "naive": ("dcg@10", "precision@10", "avg_rel_rank"),
    "ips": ("dcg@10", "precision@10", "avg_rel_rank"),
    "snips": ("recall@10",),
}
#: Old names -> new: the old keeps working with a ``FutureWarning``.
RENAMED = {"arp": "avg_rel_rank"}
_KINDS = {
    "ips": "a sum of IPS gains per impression: estimator='ips' (or 'naive')",
    "snips": "a ratio of IPS sums pooled over the log: estimator='snips' (or "
             "'naive')",
}


def check_estimators(estimator):
    """``(estimators, single)``: a name of :data:`~._gains.ESTIMATORS`, or a
    tuple/list of them (kept in the given order, once each)."""
    if isinstance(estimator, str):
        return (check_option(estimator, "estimator", ESTIMATORS),), True
    try:
        names = list(estimator)
    except TypeError:
        raise TypeError(f"estimator must be one of {ESTIMATORS} or a tuple of "
                        f"them, got {type(estimator).__name__}.") from None
    if not names:
        raise ValueError("estimator must name at least one estimator, got an "
                         "empty sequence.")
    return tuple(dict.fromkeys(check_option(e, "estimator", ESTIMATORS)
                               for e in names)), False


def _renamed(metrics):
    """The metric names with the old ones renamed (a ``FutureWarning``)."""
    names = [metrics] if isinstance(metrics, str) else metrics
    try:
        names = list(names)
    except TypeError:
        raise TypeError(f"metrics must be a metric name or a list of names, got "
                        f"{type(metrics).__name__}.") from None
    out = []
    for name in names:
        if isinstance(name, str) and name in RENAMED:
            new = RENAMED[name]
            warnings.warn(
                f"metric {name!r} of counterfactual_report is renamed {new!r} "
                f"(the average rank of the relevant items; the recommenders' "
                f"'arp@K' is the average recommendation popularity); {name!r} "
                f"will stop working in a future version.", FutureWarning,
                stacklevel=4)
            name = new
        out.append(name)
    return out


def report_plan(metrics, estimator, output):
    """The report's arguments that need no data, checked in order:
    ``(estimator, [(name, spec, options)])`` for one estimator, read by the
    package's one name reader over that estimator's table."""
    plans, _ = report_plans(metrics, estimator, output)
    if len(plans) != 1:
        raise ValueError(f"estimator must be one estimator here, got "
                         f"{tuple(plans)}.")
    (estimator, parsed), = plans.items()
    return estimator, parsed


def report_plans(metrics, estimator, output):
    """``({estimator: parsed}, names)``: each estimator's metrics among
    ``metrics`` (None: the union of their defaults, in order), and the
    names of the table's rows.  One estimator: a name it does not define
    is an error; several: a name that none defines is."""
    estimators, single = check_estimators(estimator)
    check_option(output, "output", OUTPUTS)
    if metrics is None:
        metrics = list(dict.fromkeys(
            name for e in estimators for name in DEFAULT_METRICS[e]))
    names = _renamed(metrics)
    # every name must be a report metric (the naive table has them all)
    every = parse_metrics(names, inputs=(REPORT_TABLE,), what="counterfactual report")
    plans = {}
    for e in estimators:
        table = REPORT_TABLES[e]
        mine = [n for n, _, _ in every if n.partition("@")[0] in table]
        if single and len(mine) < len(every):
            name = next(n for n, _, _ in every if n not in mine)
            kind = next((text for other, text in _KINDS.items()
                         if name.partition("@")[0] in REPORT_TABLES[other]),
                        "a metric of the raw clicks: estimator='naive'")
            raise ValueError(f"metrics: {name!r} is {kind}, not estimator={e!r}.")
        plans[e] = parse_metrics(mine, inputs=(table,), what="counterfactual report")
    rows = [n for n, _, _ in every]
    if not any(plans.values()):
        raise ValueError(f"metrics: none of {rows} is defined for the estimators "
                         f"{estimators}.")
    return plans, rows


def _seeded(rng):
    """A seed drawn once, so that every estimator resamples the same
    impressions."""
    return int(rng.integers(0, 2**63 - 1))


def counterfactual_report(clicks, y_score, positions, *, groups, propensities,
                          metrics=None, estimator="ips", clip=None, confidence=None,
                          n_resamples=1000, random_state=None, sample_weight=None,
                          output="dict", refit=False, items=None):
    """Ranking metrics of a new ranker, estimated from a biased click log.

    Each row of the log is an item that an old ranker displayed at
    ``positions`` in an impression (``groups``); ``clicks`` says whether it
    was clicked.  Under the position-based model the click probability is
    :math:`\\theta_k \\gamma_d`; with the propensities normalised to
    :math:`\\theta_1 = 1` the relevance estimate

    .. math::

        \\hat r = \\frac{\\text{click}}{\\theta_{\\text{position}} / \\theta_1}
        \\quad (\\text{with } ``clip=c``: \\ \\text{click} \\cdot
        \\min(\\theta_1 / \\theta, c))

    has expected value :math:`\\theta_1 \\gamma_d`, the item's click
    probability at position 1 (its relevance when position 1 is always
    examined).  The new ranker ranks each impression's rows by ``y_score``
    and each metric is computed with :math:`\\hat r` as the gain:

    - ``dcg@k``: :math:`\\sum_{i \\le k} \\hat r_i / \\log_2(1 + i)`;
    - ``precision@k``: :math:`\\sum_{i \\le k} \\hat r_i / k`;
    - ``avg_rel_rank``: :math:`\\sum_i \\hat r_i \\cdot i`, the rank of the
      relevant items (ARP of Joachims et al. 2017; lower is better; the
      old name ``arp`` works with a ``FutureWarning``);
    - ``recall@k``: with ``'snips'``,
      :math:`\\sum_{\\text{log}} \\sum_{i \\le k} \\hat r_i /
      \\sum_{\\text{log}} \\sum_i \\hat r_i`, both sums over every
      impression of the log;
    - with ``'naive'`` also ``ndcg@k`` and the per-impression ``recall@k``
      of the clicks.

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
        The impression (a ranking shown once, e.g. a page-view id) of each
        row.  An impression shows each position once: a position on
        several rows of one impression is an error (a query id, shared by
        many impressions, is not an impression id).
    propensities : PositionBiasEstimator or array-like of shape (n_positions,)
        A fitted :class:`PositionBiasEstimator`, or the examination
        propensity of positions ``1 .. n_positions`` (finite, > 0), in units
        of position 1's.
    metrics : str or list of str, default=None
        Names among ``"dcg"``, ``"dcg@K"``, ``"precision@K"``,
        ``"avg_rel_rank"`` (``'ips'``), ``"recall@K"`` (``'snips'``), every
        one and ``"ndcg"``, ``"ndcg@K"`` with ``'naive'``.  None: each
        estimator's own (``'ips'``, ``'naive'``: ``dcg@10``,
        ``precision@10``, ``avg_rel_rank``; ``'snips'``: ``recall@10``).
    estimator : {'ips', 'snips', 'naive'} or tuple of them, default='ips'
        ``'ips'``: DCG, precision and the average relevant rank of the IPS
        gains, averaged over every impression: unbiased under the
        position-based model.  ``'snips'``: the self-normalised estimate
        (Swaminathan and Joachims 2015): the recall of the IPS gains as one
        ratio of two sums over every impression of the log, consistent for
        the share of the log's relevance (click probability at position 1)
        that the new ranker puts in its top ``k``.  ``'naive'``: the clicks
        as gains (a plain ranking metric of the log, biased towards the old
        ranker).  A tuple, e.g. ``("naive", "ips", "snips")``: the
        estimators side by side (a metric an estimator does not define is
        NaN in its column).
    clip : float, default=None
        Largest inverse propensity, at least 1: each click's weight is
        ``min(1 / propensity, clip)``.  Lower variance, biased downwards for
        the positions it clips.  Ignored by ``'naive'``.
    confidence : float, default=None
        If given (in (0, 1)), a percentile bootstrap interval of each value
        at this level, from resampling whole impressions with replacement
        (the same resamples for every estimator).  With one impression it
        warns: the interval is then the value itself.
    n_resamples : int, default=1000
        Number of bootstrap resamples (with ``confidence``).
    random_state : int, numpy.random.Generator, RandomState or None, \
default=None
        Seed of the resampling (with ``confidence``).
    sample_weight : array-like of shape (n_samples,), default=None
        Weight of each impression, repeated on its rows (constant within a
        group).
    output : {'dict', 'frame', 'text'}, default='dict'
        One estimator: ``{metric: value}`` (or ``{metric: {"value",
        "ci_low", "ci_high"}}`` with ``confidence``), a pandas DataFrame
        with the columns ``metric``, ``value`` (``ci_low``, ``ci_high``) and
        ``n_groups`` (the impressions where the metric is defined), or a
        text table.  Several estimators: ``{estimator: {metric: ...}}``, a
        DataFrame with one row per metric and a column per estimator (and
        ``<estimator>_ci_low``, ``<estimator>_ci_high`` with
        ``confidence``), or a text table of the same layout.
    refit : bool, default=False
        With ``confidence`` and a fitted :class:`PositionBiasEstimator`:
        re-estimate the propensities on each resample (a clone fitted on the
        report's log, each impression weighted by its count in the
        resample), so that the interval includes the propensities'
        uncertainty.  The estimator is taken to have been fitted on this
        log.
    items : array-like of shape (n_samples,), default=None
        The item of each row (as :meth:`PositionBiasEstimator.fit` reads
        it), for ``refit=True`` with an estimator whose method needs items.

    Returns
    -------
    report : dict, pandas.DataFrame or str
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
    whatever they see break it).  ``clip`` trades that for variance.  SNIPS
    is a ratio of two such sums: consistent (its bias falls as 1 / the
    number of impressions), not unbiased.

    **Ties** of ``y_score`` within an impression: the expected value over
    the orders of the tied rows (each metric is linear in the gains, so the
    expectation is exact).  ``-inf`` scores are not retrieved: no gain
    within the cutoffs; ``avg_rel_rank`` ranks them after the others.

    **Averages.**  ``dcg``, ``precision``, ``avg_rel_rank``: the mean over
    every impression (0 without a click); SNIPS ``recall``: one ratio over
    the log; naive ``ndcg`` and ``recall``: the mean over the impressions
    with a click.  These are the registry's metrics of gains, computed by
    the same engine, statistics and bootstrap as :func:`ranking_report`.

    References
    ----------
    .. [1] T. Joachims, A. Swaminathan and T. Schnabel, "Unbiased
       Learning-to-Rank with Biased Feedback", WSDM 2017.
    .. [2] A. Swaminathan and T. Joachims, "The Self-Normalized Estimator
       for Counterfactual Learning", NeurIPS 2015.
    .. [3] X. Wang, N. Golbandi, M. Bendersky, D. Metzler and M. Najork,
       "Position Bias Estimation for Unbiased Learning to Rank in Personal
       Search", WSDM 2018.

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
    ...                       metrics=["precision@1", "avg_rel_rank"])
    {'precision@1': 2.5, 'avg_rel_rank': 5.0}
    >>> print(counterfactual_report(
    ...     clicks, y_score, positions, groups=groups,
    ...     propensities=[1.0, 0.5, 0.25], metrics=["precision@1", "recall@1"],
    ...     estimator=("naive", "ips", "snips"), output="text"))
    metric          naive     ips   snips
    precision@1    0.7500  2.5000       -
    recall@1       0.5000       -  0.7143
    impressions: 2
    snips: ratios of sums over the whole log
    """
    plans, rows = report_plans(metrics, estimator, output)
    estimators, single = check_estimators(estimator)
    if confidence is not None:
        confidence = check_confidence(confidence)
        n_resamples = check_n_resamples(n_resamples)
        rng = check_random_state(random_state)
    if not isinstance(refit, (bool, np.bool_)):
        raise TypeError(f"refit must be True or False, got {refit!r}.")
    if refit:
        if confidence is None:
            raise ValueError("refit=True re-estimates the propensities on each "
                             "bootstrap resample: give confidence= too.")
        if not (hasattr(propensities, "fit") and hasattr(propensities, "get_params")):
            raise TypeError("refit=True needs propensities to be a fitted "
                            "PositionBiasEstimator (an array cannot be refitted).")
    if groups is None:
        raise ValueError("groups must give the impression of each row (a ranking "
                         "shown once); got None.")
    c, pos, y_score, _ = check_log(clicks, positions, y_score=y_score)
    weights = {e: position_weights(propensities, estimator=e, clip=clip)
               for e in estimators}
    gains = {e: relevance_estimates(c, pos, weights[e]) for e in estimators}
    item_code = None
    if refit and getattr(propensities, "method", None) != "randomized":
        if items is None:
            raise ValueError("items must give the item of each row for refit=True "
                             "with a PositionBiasEstimator that reads items "
                             f"(method={propensities.method!r}).")
        item_code, _ = encode_ids(items, c.shape[0], "items")
    seed = None if confidence is None else _seeded(rng)
    out = {}
    for e in estimators:
        parsed = plans[e]
        if not parsed:
            out[e] = {}
            continue
        info, parts = evaluate_chunked(gains[e], y_score, groups=groups,
                                       sample_weight=sample_weight, parsed=parsed)
        if e == next(x for x in estimators if plans[x]):
            # after the pipeline's checks of the ids and weights (the
            # order of the Spark and Dask reports' checks)
            check_repeated(repeated_impressions(
                encode_ids(groups, c.shape[0], "groups")[0], pos))
        summaries = {name: (spec.aggregate(parts[name], info,
                                           average=spec.default_average),
                            int(np.count_nonzero(parts[name].defined)))
                     for name, spec, _ in parsed}
        intervals = None
        if confidence is not None:
            n_groups = info.labels.shape[0]
            if n_groups == 1 and e == estimators[0]:
                warn("counterfactual_report: an interval over one impression is "
                     "the value itself (every resample draws that impression); "
                     "the interval says nothing of the uncertainty.", UserWarning)
            if refit and e != "naive":
                intervals = refit_intervals(
                    propensities, c, pos, item_code, y_score, groups, sample_weight,
                    parsed, [summaries[name][0] for name, _, _ in parsed],
                    estimator=e, clip=clip, confidence=confidence,
                    n_resamples=n_resamples, seed=seed)
            else:
                intervals = bootstrap_intervals(
                    info, parts, parsed, confidence=confidence,
                    n_resamples=n_resamples, rng=np.random.default_rng(seed))
        out[e] = with_intervals(summaries, intervals)
        n_impressions = int(info.labels.shape[0])
    if single:
        return format_report(out[estimators[0]], output, digits=4)
    return _side_by_side(out, rows, output, n_impressions)


def _side_by_side(out, rows, output, n_impressions):
    """Several estimators' summaries -> one row per metric, a column each."""
    if output == "dict":
        return {e: format_report(s, "dict", digits=4) for e, s in out.items()}
    with_ci = any(len(v) == 4 for s in out.values() for v in s.values())
    columns = {"metric": np.array(rows, dtype=object)}
    for e, s in out.items():
        columns[e] = np.array([s[r][0] if r in s else np.nan for r in rows])
        if with_ci:
            columns[f"{e}_ci_low"] = np.array([s[r][2] if r in s else np.nan
                                               for r in rows])
            columns[f"{e}_ci_high"] = np.array([s[r][3] if r in s else np.nan
                                                for r in rows])
    if output == "frame":
        import pandas as pd

        return pd.DataFrame(columns)
    return _text_table(columns, list(out), with_ci, n_impressions)


def _text_table(columns, estimators, with_ci, n_impressions, digits=4):
    """The side-by-side table as text: a value (and ``[low, high]``) per
    estimator, ``-`` where an estimator does not define a metric."""
    def cell(e, i):
        value = columns[e][i]
        if not np.isfinite(value):
            return "-"
        text = f"{value:.{digits}f}"
        if with_ci:
            text += (f" [{columns[f'{e}_ci_low'][i]:.{digits}f}, "
                     f"{columns[f'{e}_ci_high'][i]:.{digits}f}]")
        return text

    names = list(columns["metric"])
    cells = {e: [cell(e, i) for i in range(len(names))] for e in estimators}
    name_width = max(len("metric"), *(len(n) for n in names)) + 2
    widths = {e: max(len(e), *(len(t) for t in cells[e])) + 2 for e in estimators}
    lines = [f"{'metric':<{name_width}s}"
             + "".join(f"{e:>{widths[e]}s}" for e in estimators)]
    for i, name in enumerate(names):
        lines.append(f"{name:<{name_width}s}"
                     + "".join(f"{cells[e][i]:>{widths[e]}s}" for e in estimators))
    lines.append(f"impressions: {n_impressions}")
    if "snips" in estimators:
        lines.append("snips: ratios of sums over the whole log")
    return "\n".join(lines)


def refit_intervals(estimator_obj, c, pos, item_code, y_score, groups, sample_weight,
                    parsed, values, *, estimator, clip, confidence, n_resamples,
                    seed):
    """``{name: (ci_low, ci_high)}``, the propensities refitted per resample.

    Every metric of the report is linear in the gains, and a row's gain is
    its click times the weight of its position: so each impression's
    statistics are ``sum_p W[p] S[p]``, ``S[p]`` the statistics of the
    gains ``click * [position == p]`` (one pass of the pipeline per
    position, once).  A resample draws impression counts, refits a clone of
    the estimator on the log weighted by them (the counts repeated on the
    impressions' rows), and combines ``S`` with the refitted weights: no
    pipeline pass per resample.  ``values``: the estimates, one per parsed
    metric, on which the interval is centred (the resamples' mean moved
    onto them).
    """
    theta = propensities_of(estimator_obj)
    n_pos = theta.shape[0]
    per_position = []
    info = None
    for p in range(1, n_pos + 1):
        unit = (c * (pos == p)).astype(np.float64)
        info, parts = evaluate_chunked(unit, y_score, groups=groups,
                                       sample_weight=sample_weight, parsed=parsed)
        per_position.append([average_terms(parts[name], info, spec,
                                           average=spec.default_average)
                             for name, spec, _ in parsed])
    n_groups = info.labels.shape[0]
    group_code, _ = encode_ids(groups, c.shape[0], "groups")
    cf = c.astype(np.float64)
    # statistics (metric, stat row) -> (n_pos, n_groups); the weight row of a
    # mean over groups is the groups' weights, not a sum of gains
    linear, constant = [], []
    for j, (_, spec, _) in enumerate(parsed):
        stats = np.stack([np.asarray(per_position[p][j].stats, dtype=np.float64)
                          for p in range(n_pos)])  # (n_pos, rows, n_groups)
        micro = spec.default_average == "micro"
        linear.append((stats[:, 0], stats[:, 1] if micro else None))
        constant.append(None if micro else stats[0, 1])
    # the same positions as the fitted propensities, on every resample
    template = clone(estimator_obj).set_params(max_position=n_pos)
    dist = np.full((n_resamples, len(parsed)), np.nan)
    rng = np.random.default_rng(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for start, counts in resample_counts(n_groups, n_resamples, rng):
            for i, count in enumerate(counts):
                row_w = count[group_code]
                try:
                    fitted = clone(template)._fit_codes(
                        cf, pos, item_code, _item_ids(item_code), row_w)
                except ValueError:  # a resample the model cannot identify
                    continue
                w = position_weights(fitted.propensities_, estimator=estimator,
                                     clip=clip)
                for j in range(len(parsed)):
                    num_s, den_s = linear[j]
                    num = (w @ num_s) @ count
                    den = (w @ den_s) @ count if den_s is not None \
                        else constant[j] @ count
                    dist[start + i, j] = num / den if den > 0 else np.nan
    # centred on the estimate: a resample repeats impressions, and a refit
    # on repeated rows (an item seen twice as often, with the same clicks)
    # shifts the maximum-likelihood propensities by an artefact of the
    # resampling, not of the log; the spread is the resamples'
    shift = np.nanmean(dist, axis=0) - np.asarray(values, dtype=np.float64)
    low, high = percentile_interval(dist - shift, confidence)
    return {name: (float(lo), float(hi))
            for (name, _, _), lo, hi in zip(parsed, low, high)}


def _item_ids(item_code):
    """Stand-in ids of dense item codes (the refit reads codes only)."""
    return None if item_code is None else np.arange(int(item_code.max()) + 1)
