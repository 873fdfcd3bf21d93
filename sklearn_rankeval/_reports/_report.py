"""``ranking_report``: many metrics from one validation and one sort.

The values come from the metrics' per-group partials (the pipeline's ``evaluate``),
aggregated with each metric's default ``average``; ``segments`` aggregates the
same partials within each segment's groups.
"""

from numbers import Integral

import numpy as np

from .._core import (
    Interval,
    astype,
    check_option,
    declared,
    namespace_of,
    reject_host_options,
    to_numpy,
)
from .._engine import check_length, encode_rows, layout_of
from .._metrics import (
    DEFAULT_METRICS,
    evaluate,
    fill_doc,
    parse_metrics,
)
from .._stats import (
    bootstrap_intervals,
    check_confidence,
    check_n_resamples,
    check_random_state,
    plain_label,
)
from ._format import format_report, format_segments, with_intervals

__all__ = ["DEFAULT_METRICS", "ranking_report"]

OUTPUTS = ("text", "dict", "frame")
#: ``digits``: the decimals of the text report, an integer >= 0.
_check_digits = declared("digits", Interval(Integral, 0, None), convert=int,
                         text="a non-negative integer")


def metric_summaries(info, parts, parsed):
    """``{name: (value, number of groups where it is defined)}``."""
    out = {}
    for name, spec, _ in parsed:
        p = parts[name]
        value = spec.aggregate(p, info, average=spec.default_average)
        xp = namespace_of(p.defined)
        out[name] = (value, int(xp.sum(astype(xp, p.defined, xp.int64))))
    return out


def _row_segments(segments, y_score, layout):
    """Each row's segment code (each query's in the 2-D and multiclass
    layouts: ``layout``, the door's :func:`~sklearn_rankeval._engine.layout_of`)
    and the labels."""
    if hasattr(segments, "to_numpy") and not isinstance(segments, np.ndarray):
        segments = segments.to_numpy()
    # segments are a host-side label per row: Array API ids are copied there
    seg = np.asarray(to_numpy(segments))
    n = int(np.shape(y_score)[0])
    check_length(seg.shape, n, "segments", what="label", rows="y_score" if
                 layout == "long" else "y_score (one query per row)")
    return encode_rows(seg, n, name="segments")


def _segment_of_groups(seg_index, groups, n):
    """The segment of each group if it is constant within every group, else
    None (per-row segments).  ``seg_index``: each row's segment code."""
    if groups is None:
        row_group = np.zeros(n, dtype=np.int64)
    else:
        row_group, _ = encode_rows(to_numpy(groups), n)
    n_groups = int(row_group.max()) + 1
    lo = np.full(n_groups, np.iinfo(np.int64).max)
    hi = np.full(n_groups, -1)
    np.minimum.at(lo, row_group, seg_index)
    np.maximum.at(hi, row_group, seg_index)
    return (lo if (lo == hi).all() else None), row_group
















@fill_doc
def ranking_report(y_true, y_score, *, groups=None, metrics=None, sample_weight=None,
                   output_dict=False, digits=4, segments=None, output="text",
                   confidence=None, n_resamples=1000, random_state=None,
                   convention=None, negative_sampling_rate=None, pos_label=None,
                   samples=None, items=None, item_groups=None, intent_weights=None):
    """Report many ranking metrics computed from one validation and one sort.

    What :func:`sklearn.metrics.classification_report` is to classification:
    the inputs are validated and ranked once by the engine, and every metric
    is computed from that one ranking, each with its default ``average``
    (GAUC weighted by group size, HR@k pooled, the others per query).

    Read more in the :ref:`User Guide <ranking-report>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_queries, n_items)
        Relevance of each item (``>= 0``), as for the metric functions; 1-D
        class labels when ``y_score`` is 2-D multiclass scores.
    y_score : array-like of shape (n_samples,), (n_queries, n_items) or \
(n_samples, n_classes)
        Scores, higher ranks first (``-inf``: not retrieved).  Under
        ``array_api_dispatch``, an array of any Array API library: the
        averages are computed on its device (:ref:`array_api`).
    groups : array-like of shape (n_samples,), default=None
        Query (user) id of each row for 1-D input; None: one ranking.
    %(metrics_report)s
    sample_weight : array-like, default=None
        One weight per row (long layout) or per query (2-D and multiclass).
        As in the metric functions: item weights for GAUC, MAP and
        interpolated AP; query weights, constant within a group, for the
        others.
    output_dict : bool, default=False
        The same as ``output="dict"`` (kept from scikit-learn's
        ``classification_report``).
    digits : int, default=4
        Digits of the values in the text report.
    segments : array-like of shape (n_samples,) or (n_queries,), default=None
        A segment label per row (country, new or returning user, activity
        bucket), constant within each group; or one per query for 2-D and
        multiclass input.  Every metric is then reported within each segment
        (over the groups of that segment), all from the one ranking.  The
        metrics that pool rows (``log_loss``, ``ne``, ``pcoc``, ``ece``) also
        take a segment per row that varies within a group (the device or
        placement of each impression): each segment's value is then the
        metric of its rows, and intervals resample the (group, segment)
        cells.
    output : {'text', 'dict', 'frame'}, default='text'
        A text table; a flat dict ``{metric name: value}`` (with
        ``segments``: ``{segment: {metric name: value}}``); or a tidy pandas
        DataFrame with the columns ``metric``, ``value``, ``n_groups`` (and
        ``segment`` first with ``segments``).
    confidence : float, default=None
        If given (in (0, 1), e.g. 0.95), every value gets a percentile
        bootstrap interval at this level, from resampling whole groups with
        replacement and recomputing the metric exactly as its own average
        (see :ref:`uncertainty`): the dict value of each metric becomes
        ``{"value", "ci_low", "ci_high"}``, and the text and the frame gain
        ``ci_low`` and ``ci_high`` columns.  With ``segments``, each
        segment's groups are resampled on their own.
    n_resamples : int, default=1000
        Number of bootstrap resamples (with ``confidence``).
    random_state : int, numpy.random.Generator, RandomState or None, \
default=None
        Seed of the resampling (with ``confidence``); an int gives the same
        intervals on every run and platform.
    %(convention_header)s
        Every metric as that library computes it (see
        :ref:`conventions-presets`): each value then equals the metric
        function called with ``convention=``.  A metric the library does not
        have is a ``ValueError``.  None: this library's own rules.
    %(negative_sampling_rate)s
    %(pos_label_door)s
    %(exposure_columns)s
    %(intent_weights_report)s

    Returns
    -------
    report : str, dict or pandas.DataFrame
        A table with one line per metric (its value and the number of groups
        where it is defined), the dict of values, or the frame.

    See Also
    --------
    sklearn.metrics.classification_report : The same idea for classification.
    get_scorer_names : The metric names.
    per_group_scores : The value of every metric in every group.

    Notes
    -----
    Each value equals the corresponding function's default call, e.g.
    ``report["ndcg@10"] == ndcg_score(y_true, y_score, groups=groups, k=10)``.
    Undefined groups (no relevant item; for GAUC a single class) are skipped;
    a metric undefined for every group reports NaN with an
    ``UndefinedMetricWarning``.  With ``segments``, each segment's values
    equal the report of that segment's rows alone.

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
    ...                output="dict")
    {'map': 0.6666666666666666, 'mrr': 0.875}
    >>> # per segment: "a" is a new user, "b" a returning one
    >>> segment = ["new"] * 4 + ["returning"] * 4
    >>> ranking_report(y_true, y_score, groups=groups, metrics=["mrr"],
    ...                segments=segment, output="dict")
    {'new': {'mrr': 1.0}, 'returning': {'mrr': 0.75}}
    >>> # 90% bootstrap interval over the groups (two groups: a coarse one)
    >>> report = ranking_report(y_true, y_score, groups=groups, metrics=["mrr"],
    ...                         output="dict", confidence=0.9, random_state=0)
    >>> report["mrr"]
    {'value': 0.875, 'ci_low': 0.75, 'ci_high': 1.0}
    """
    check_option(output, "output", OUTPUTS)
    if output_dict:
        if output not in ("text", "dict"):
            raise ValueError(
                f"output_dict=True asks for output='dict', but output={output!r}."
            )
        output = "dict"
    parsed = parse_metrics(metrics)
    digits = _check_digits(digits)
    if confidence is not None:
        confidence = check_confidence(confidence)
        n_resamples = check_n_resamples(n_resamples)
        rng = check_random_state(random_state)
    reject_host_options((y_score, y_true, groups, sample_weight),
                        convention=convention)
    columns = {"samples": samples, "items": items, "item_groups": item_groups,
               "intent_weights": intent_weights}
    info, parts, parsed = evaluate(y_true, y_score, groups=groups,
                                   sample_weight=sample_weight, metrics=parsed,
                                   convention=convention, pos_label=pos_label,
                                   negative_sampling_rate=negative_sampling_rate,
                                   columns=columns)

    if (confidence is not None or segments is not None) and not isinstance(
            info.weight, np.ndarray):
        # intervals and segments resample or select groups: their per-group
        # partials (not the rows) are copied to the host once
        info = info.to_numpy()
        parts = {name: p.to_numpy() for name, p in parts.items()}

    def summaries(info, parts):
        intervals = None if confidence is None else bootstrap_intervals(
            info, parts, parsed, confidence=confidence, n_resamples=n_resamples,
            rng=rng)
        # ratio, aggregate x2, metric_summaries, summaries, ranking_report, caller
        return with_intervals(metric_summaries(info, parts, parsed),
                               intervals)

    if segments is None:
        return format_report(summaries(info, parts), output, digits,
                             n_groups=int(info.n_items.shape[0]))
    layout = layout_of(y_true, y_score)
    seg_index, seg_labels = _row_segments(segments, y_score, layout)
    if layout != "long":
        seg_of_group = seg_index  # one segment per query
    else:
        seg_of_group, row_group = _segment_of_groups(seg_index, groups,
                                                     int(np.shape(y_score)[0]))
    if seg_of_group is None:
        # per-row segments (the device or placement of each impression): the
        # pooled metrics are the metric of each segment's rows, computed on
        # the (group, segment) cells, whose statistics add up to it
        grouped = [name for name, spec, _ in parsed if not spec.grouping_free]
        if grouped:
            raise ValueError(
                f"segments must be constant within each group for "
                f"{', '.join(grouped)}, whose value is one group's; per-row "
                f"segments (a segment per impression) are for the metrics "
                f"that pool rows (log_loss, ne, pcoc, ece).")
        cells = row_group * len(seg_labels) + seg_index
        info, parts, parsed = evaluate(
            y_true, y_score, groups=cells, sample_weight=sample_weight,
            metrics=parse_metrics(metrics), convention=convention,
            pos_label=pos_label,
            negative_sampling_rate=negative_sampling_rate, columns=columns)
        info, parts = info.to_numpy(), {n: p.to_numpy() for n, p in parts.items()}
        seg_of_group = np.asarray(info.labels) % len(seg_labels)
    by_segment, n_groups = {}, {}
    for code, label in enumerate(seg_labels):
        index = np.flatnonzero(seg_of_group == code)
        sub = {name: p.take(index) for name, p in parts.items()}
        by_segment[plain_label(label)] = summaries(info.take(index), sub)
        n_groups[plain_label(label)] = int(index.shape[0])
    return format_segments(by_segment, output, digits, n_groups=n_groups)
