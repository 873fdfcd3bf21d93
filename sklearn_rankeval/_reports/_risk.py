"""``risk_report``: how much a model hurts the groups where it loses to a
baseline -- URisk, TRisk with its test, GeoRisk -- from the per-group
terms of ``compare_rankings``."""

from numbers import Real

import numpy as np

from .._core import InvalidArgumentError, check_option
from .._metrics import evaluate, parse_metrics
from .._stats import georisk, trisk, urisk
from ._designs import group_terms
from ._format import make_frame
from ._from_frames import parts_from_frames

__all__ = ["risk_report"]

OUTPUTS = ("frame", "dict", "text")
FIELDS = ("value", "urisk", "trisk", "p_trisk", "georisk", "wins", "losses")


def risk_report(y_true, y_scores, *, groups=None, metrics=None,
                sample_weight=None, baseline=None, alpha=1.0, output="frame"):
    """Risk-sensitive evaluation of several models against a baseline.

    For each metric and each model: URisk (the mean per-group difference to
    the baseline, every loss weighted ``1 + alpha``), TRisk (URisk over its
    standard error) with its p-value, and GeoRisk (the geometric mean of the
    model's mean and of the normal cdf of its risk against what the set of
    models leads one to expect of each group).  A model that gains on
    average but loses badly on some groups has a lower URisk than its mean
    gain.

    Read more in the :ref:`User Guide <statistics-risk>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_queries, n_items), or None
        Relevance of each item, as for the metric functions; None:
        ``y_scores`` holds per-group frames.
    y_scores : dict of {str: array-like} or dict of {str: DataFrame}
        ``{model name: scores}``, at least two models scoring the same rows;
        with ``y_true=None``, ``{model name: per-group frame}`` as in
        :func:`compare_rankings` (e.g. from Spark or Dask).
    groups : array-like of shape (n_samples,), default=None
        Query (user) id of each row for 1-D input.
    metrics : list of str, default=None
        Metric names as the scorer names; None: :func:`ranking_report`'s
        default metrics.
    sample_weight : array-like, default=None
        As in :func:`compare_rankings`.
    baseline : str, default=None
        The model the others are compared with; None: the first.
    alpha : float, default=1.0
        The extra weight of a loss, ``>= 0`` (``alpha = 0``: URisk is the
        mean difference).  Dinçer et al. report ``alpha`` in ``{1, 2, 5,
        10}``.
    output : {'frame', 'dict', 'text'}, default='frame'
        A tidy pandas DataFrame (``metric, model`` and the fields
        ``value, urisk, trisk, p_trisk, georisk, wins, losses``), a dict
        ``{metric: {model: fields}}``, or a text table.

    Returns
    -------
    report : pandas.DataFrame, dict or str
        The baseline's row has URisk 0 and NaN TRisk; GeoRisk is given for
        every model (it compares each with all of them).

    See Also
    --------
    compare_rankings : Differences, intervals and tests against a baseline.

    Notes
    -----
    Over the ``c`` groups where every model is defined, with ``d_j`` the
    per-group difference (model minus baseline) of the metric's term (the
    value for a macro mean; see :func:`compare_rankings`):

    - ``URisk = (1/c) [sum_{d_j > 0} d_j + (1 + alpha) sum_{d_j < 0} d_j]``
      (Wang, Bennett and Collins-Thompson 2012);
    - ``TRisk = URisk / (s / sqrt(c))``, ``s`` the standard deviation of the
      risk-weighted differences: their one-sample t statistic, and
      ``p_trisk`` its two-sided p-value with ``c - 1`` degrees of freedom;
      ``TRisk < -2`` says the model is riskier than the baseline
      (Dinçer, Macdonald and Ounis 2014);
    - GeoRisk: with the groups x models matrix of values, ``S_i`` the
      model's total, ``T_j`` the group's total over the models, ``N`` the
      grand total, ``e_ji = S_i T_j / N`` and ``z_ji = (x_ji - e_ji) /
      sqrt(e_ji)``: ``ZRisk_i = sum_{z >= 0} z + (1 + alpha) sum_{z < 0} z``
      and ``GeoRisk_i = sqrt(S_i / c * Phi(ZRisk_i / c))`` (Dinçer,
      Macdonald and Ounis 2016).  It needs values ``>= 0``.

    References
    ----------
    .. [1] L. Wang, P. N. Bennett and K. Collins-Thompson, "Robust ranking
       models via risk-sensitive optimization", SIGIR 2012.
    .. [2] B. T. Dinçer, C. Macdonald and I. Ounis, "Hypothesis testing for
       the risk-sensitive evaluation of retrieval systems", SIGIR 2014.
    .. [3] B. T. Dinçer, C. Macdonald and I. Ounis, "Risk-sensitive
       evaluation and learning to rank using multiple baselines", SIGIR 2016.

    Examples
    --------
    >>> from sklearn_rankeval import risk_report
    >>> y_true = [1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1]
    >>> groups = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    >>> # B gains 1/2 and 2/3 in queries 2 and 4, loses 1/2 in query 3
    >>> scores = {"A": [3, 2, 1, 3, 2, 1, 3, 2, 1, 3, 2, 1],
    ...           "B": [3, 2, 1, 1, 3, 2, 2, 3, 1, 1, 2, 3]}
    >>> r = risk_report(y_true, scores, groups=groups, metrics=["mrr"],
    ...                 alpha=1.0, output="dict")["mrr"]["B"]
    >>> # mean gain (1/2 + 2/3 - 1/2) / 4; URisk counts the loss twice
    >>> round(r["value"], 4), round(r["urisk"], 4), r["wins"], r["losses"]
    (0.875, 0.0417, 2, 1)
    """
    if not hasattr(y_scores, "keys") or len(y_scores) < 2:
        raise InvalidArgumentError(
            "y_scores", "must be a dict {model name: scores} of at least two "
                        "models.")
    models = list(y_scores)
    if baseline is None:
        baseline = models[0]
    elif baseline not in y_scores:
        raise InvalidArgumentError(
            "baseline", f"must be one of the models "
                        f"({', '.join(map(repr, models))}), got {baseline!r}.",
            value=baseline)
    if isinstance(alpha, bool) or not isinstance(alpha, Real) or not alpha >= 0:
        raise InvalidArgumentError("alpha", f"must be a number >= 0, got {alpha!r}.",
                                   value=alpha)
    check_option(output, "output", OUTPUTS)
    parsed = parse_metrics(metrics)
    parts, info, resolved = {}, None, parsed
    if y_true is None:  # per-group frames, as compare_rankings takes them
        if groups is not None or sample_weight is not None:
            raise InvalidArgumentError(
                "groups" if groups is not None else "sample_weight",
                "must be None with per-group frames (y_true=None).")
        info, parts = parts_from_frames(y_scores, parsed)
    for model in models if y_true is not None else ():
        info, parts[model], resolved = evaluate(
            y_true, y_scores[model], groups=groups, sample_weight=sample_weight,
            metrics=parsed)
        info = info.to_numpy()
        parts[model] = {n: p.to_numpy() for n, p in parts[model].items()}
    b = models.index(baseline)
    result = {}
    for name, spec, _ in resolved:
        terms = group_terms({m: parts[m][name] for m in models}, models, info,
                            spec)
        x, _ = terms.matrix(list(range(len(models))))
        geo = georisk(x, alpha) if x.shape[0] else np.full(len(models), np.nan)
        by_model = {}
        for i, model in enumerate(models):
            d = x[:, i] - x[:, b]
            t, p = trisk(d, alpha) if i != b else (float("nan"), float("nan"))
            by_model[model] = dict(
                value=float(x[:, i].mean()) if x.shape[0] else float("nan"),
                urisk=urisk(d, alpha), trisk=t, p_trisk=p,
                georisk=float(geo[i]), wins=int(np.count_nonzero(d > 0)),
                losses=int(np.count_nonzero(d < 0)))
        result[name] = by_model
    if output == "dict":
        return result
    rows = [(metric, model, f) for metric, by in result.items()
            for model, f in by.items()]
    if output == "frame":
        columns = {"metric": np.array([r[0] for r in rows], dtype=object),
                   "model": np.array([r[1] for r in rows], dtype=object)}
        for field in FIELDS:
            dtype = np.int64 if field in ("wins", "losses") else float
            columns[field] = np.array([r[2][field] for r in rows], dtype=dtype)
        return make_frame(columns, "pandas", index=None)
    mw = max([len("metric")] + [len(r[0]) for r in rows]) + 2
    nw = max([len("model")] + [len(str(r[1])) + 11 for r in rows]) + 2
    lines = [f"risk against baseline {baseline}, alpha {alpha:g}, over "
             f"{x.shape[0]} groups defined for every model",
             f"{'metric':<{mw}s}{'model':<{nw}s}" + "".join(
                 f"{f:>9s}" for f in FIELDS)]
    previous = None
    for metric, model, f in rows:
        label = metric if metric != previous else ""
        previous = metric
        name = f"{model} (baseline)" if model == baseline else str(model)
        cells = "".join(
            f"{f[k]:>9d}" if k in ("wins", "losses") else
            (f"{'-':>9s}" if not np.isfinite(f[k]) else f"{f[k]:>9.4f}")
            for k in FIELDS)
        lines.append(f"{label:<{mw}s}{name:<{nw}s}{cells}")
    return "\n".join(lines)
