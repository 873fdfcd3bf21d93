"""``ranking_report``: many metrics from one validation and one sort."""

import numpy as np

from ._engine import rank_groups
from ._registry import parse_metric_name, valid_names_text

__all__ = ["ranking_report"]

#: The metrics of a report when none are named.
DEFAULT_METRICS = (
    "gauc",
    "mrr",
    "map",
    "map@10",
    "ndcg@10",
    "hit_rate@10",
    "precision@10",
    "recall@10",
    "interpolated_ap",
)


def _parse(metrics):
    if metrics is None:
        metrics = DEFAULT_METRICS
    elif isinstance(metrics, str):
        metrics = [metrics]
    parsed = []
    for name in metrics:
        spec_k = parse_metric_name(name)
        if spec_k is None:
            raise ValueError(
                f"metrics: {name!r} is not a ranking metric name; valid names are "
                f"{valid_names_text()}."
            )
        parsed.append((name, *spec_k))
    if not parsed:
        raise ValueError("metrics must name at least one metric.")
    return parsed


def ranking_report(y_true, y_score, *, groups=None, metrics=None, sample_weight=None,
                   output_dict=False, digits=4):
    """Report many ranking metrics computed from one validation and one sort.

    What :func:`sklearn.metrics.classification_report` is to classification:
    the inputs are validated and ranked once by the engine, and every metric
    is computed from that one ranking, each with its default ``average``
    (GAUC weighted by group size, HR@k pooled, the others per query).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_queries, n_items)
        Relevance of each item (``>= 0``), as for the metric functions; 1-D
        class labels when ``y_score`` is 2-D multiclass scores.
    y_score : array-like of shape (n_samples,), (n_queries, n_items) or \
(n_samples, n_classes)
        Scores, higher ranks first (``-inf``: not retrieved).
    groups : array-like of shape (n_samples,), default=None
        Query (user) id of each row for 1-D input; None: one ranking.
    metrics : list of str, default=None
        Metric names as the scorer names: ``"gauc"``, ``"mrr"``, ``"map"``,
        ``"ndcg"``, ``"interpolated_ap"``, and ``"<metric>@K"`` for ``mrr``,
        ``map``, ``ndcg``, ``hit_rate``, ``precision``, ``recall``.  None:
        ``gauc``, ``mrr``, ``map``, ``map@10``, ``ndcg@10``, ``hit_rate@10``,
        ``precision@10``, ``recall@10`` and ``interpolated_ap``.
    sample_weight : array-like, default=None
        One weight per row (long layout) or per query (2-D and multiclass).
        As in the metric functions: item weights for GAUC, MAP and
        interpolated AP; query weights, constant within a group, for the
        others.
    output_dict : bool, default=False
        Return a flat dict ``{metric name: value}`` instead of text.
    digits : int, default=4
        Digits of the values in the text report.

    Returns
    -------
    report : str or dict
        A table with one line per metric (its value and the number of groups
        where it is defined), or the dict of values.

    See Also
    --------
    sklearn.metrics.classification_report : The same idea for classification.
    get_scorer_names : The metric names.

    Notes
    -----
    Each value equals the corresponding function's default call, e.g.
    ``report["ndcg@10"] == ndcg_score(y_true, y_score, groups=groups, k=10)``.
    Undefined groups (no relevant item; for GAUC a single class) are skipped;
    a metric undefined for every group reports NaN with an
    ``UndefinedMetricWarning``.

    References
    ----------
    .. [1] C. D. Manning, P. Raghavan and H. Schütze, "Introduction to
       Information Retrieval", Cambridge University Press, 2008, section 8.4
       (evaluation of ranked retrieval results).
    .. [2] trec_eval, the evaluation program of TREC,
       https://github.com/usnistgov/trec_eval.

    Examples
    --------
    >>> from sklearn_rankeval import ranking_report
    >>> y_true = [1, 0, 0, 1, 0, 1, 1, 0]
    >>> y_score = [0.9, 0.8, 0.3, 0.2, 0.7, 0.7, 0.6, 0.1]
    >>> groups = ["a", "a", "a", "a", "b", "b", "b", "b"]
    >>> print(ranking_report(y_true, y_score, groups=groups,
    ...                      metrics=["gauc", "mrr", "ndcg@3", "precision@2"]))
    metric         value  groups
    gauc          0.5625       2
    mrr           0.8750       2
    ndcg@3        0.7099       2
    precision@2   0.5000       2
    >>> # query "b" ties its relevant item with another at the top: MRR 3/4
    >>> ranking_report(y_true, y_score, groups=groups, metrics=["map", "mrr"],
    ...                output_dict=True)
    {'map': 0.6666666666666666, 'mrr': 0.875}
    """
    parsed = _parse(metrics)
    if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) \
            or digits < 0:
        raise ValueError(f"digits must be a non-negative integer, got {digits!r}.")
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight)
    values, supports = {}, {}
    for name, spec, k in parsed:
        kwargs = {"average": spec.default_average}
        if spec.has_k:
            kwargs["k"] = spec.k_default if k is None else k
        values[name] = spec.from_ranked(rg, **kwargs)
        per_group = spec.from_ranked(rg, **{**kwargs, "average": None})
        supports[name] = int(np.count_nonzero(~np.isnan(per_group)))
    if output_dict:
        return values
    width = max(len("metric"), *(len(name) for name in values)) + 2
    value_width = max(digits + 3, len("value"))
    lines = [f"{'metric':<{width}s}{'value':>{value_width}s}  groups"]
    for name, value in values.items():
        lines.append(f"{name:<{width}s}{value:>{value_width}.{digits}f}"
                     f"  {supports[name]:>6d}")
    return "\n".join(lines)
