"""The one pipeline every entry point goes through.

inputs (:func:`~sklearn_rankeval._engine.check_inputs`: one validation) ->
the convention's plan (:mod:`._conventions`: switches per metric, applied
to the input before ranking) -> the engine's canonical grouped form, chunk
by chunk (:func:`~sklearn_rankeval._engine.ranked_chunks`; the rows of each
group, unranked, for the metrics that need no order) -> each metric's
kernel (declared in :mod:`._registry`) -> per-group
:class:`~sklearn_rankeval._stats.Partials` and
:class:`~sklearn_rankeval._stats.GroupInfo`.

The metric functions (:func:`compute`), ``ranking_report``,
``per_group_scores``, ``compare_rankings``, the accumulator, the
recommendation report and the Spark/Dask adapters all call
:func:`evaluate`; the statistics contract (:mod:`sklearn_rankeval._stats`)
turns its partials into any average.
"""

from dataclasses import replace

import numpy as np

from .._core import (
    InvalidArgumentError,
    astype,
    check_negative_sampling_rate,
    namespace_of,
    reject_host_options,
    warn,
)
from .._engine import (
    check_inputs,
    encode_rows,
    layout_of,
    ranked_chunks,
)
from .._stats import GroupInfo, Partials, apply_undefined
from ._conventions import (
    check_result,
    convention_plan,
    group_average,
    group_info,
    prepare,
    resolve,
)
from ._ctr_kernels import recalibrated
from ._registry import METRICS

__all__ = ["compute", "drop_unjudged", "evaluate", "evaluate_checked",
           "evaluate_chunked",
           "evaluate_ranked", "zero_unjudged"]


def evaluate_ranked(rg, parsed):
    """``(GroupInfo, {name: Partials})`` of the parsed metrics on one ranking."""
    return GroupInfo.from_ranked(rg), {name: spec.partials(rg, **options)
                                       for name, spec, options in parsed}


def _native(parsed):
    """The statistics for the engine's compiled pass to compute itself, as
    the metrics' registry entries declare them (None for a ranked metric
    without one: the engine then builds the blocks its kernel reads; a
    metric of the rows without one reads the rows)."""
    stats = [(spec, spec.native_statistic(spec.kernel_options(options)))
             for _, spec, options in parsed]
    return [stat for spec, stat in stats if spec.ranked or stat is not None]


def evaluate_chunked(y_true, y_score, *, groups=None, sample_weight=None,
                     labels=None, parsed=(), score_name="y_score",
                     negative_sampling_rate=None, pos_label=None, columns=None):
    """The per-group partials of ``parsed`` metrics, ranked chunk by chunk.

    Returns what ``evaluate_ranked(rank_groups(...), parsed)`` returns (the
    groups in the same order, the same values), with the engine's memory
    bounded by ``working_memory``.  ``parsed`` is a list of ``(name, spec,
    options)`` (:func:`~._registry.parse_metrics`).  The metrics that need
    no order (``spec.ranked`` False) read the unranked view of the same
    chunks.  With ``negative_sampling_rate``, the probability metrics read
    the probabilities recalibrated once (:func:`~._ctr_kernels.recalibrated`);
    the other metrics read the scores as given.  ``columns``: the optional
    columns of the input (``{name: values}``, each read by the input door's
    reader), which the kernels read in rank order
    (:meth:`~sklearn_rankeval._engine.RankedGroups.column`).
    """
    checked = check_inputs(
        y_true, y_score, groups=groups, sample_weight=sample_weight, labels=labels,
        score_name=score_name, pos_label=pos_label,
        **_door_flags(spec for _, spec, _ in parsed), **(columns or {}))
    return evaluate_checked(checked, parsed, negative_sampling_rate)


def _door_flags(specs):
    """What the input door checks for these metrics: probabilities, 0/1
    labels, grades per intent."""
    specs = list(specs)
    return {"probabilities": any(spec.scores == "probability" for spec in specs),
            "binary": any(spec.labels_kind == "binary" for spec in specs),
            "per_intent": any("intent_grades" in spec.columns for spec in specs)}


def evaluate_checked(checked, parsed, negative_sampling_rate=None):
    """:func:`evaluate_chunked` of an input the door has checked already
    (a :class:`~sklearn_rankeval._engine.RankingInput`, or one derived from
    it by a convention's switches: tie-free scores, mean query weights)."""
    layout, y_true, y_score, groups, w = checked
    probabilities = None
    if negative_sampling_rate is not None and any(
            spec.scores == "probability" for _, spec, _ in parsed):
        probabilities = recalibrated(y_score, negative_sampling_rate)
    # options that the metric reads off all the rows (ECE's quantile edges,
    # of the probabilities as the metric reads them)
    parsed = [(name, spec, {**options, **spec.options_from_rows(
        probabilities if spec.scores == "probability" and probabilities is not None
        else y_score, w, options)}
               if spec.options_from_rows is not None else options)
              for name, spec, options in parsed]
    return _evaluate_ranked_chunks(layout, y_true, y_score, groups, w, parsed,
                                   probabilities, checked.columns)


def _evaluate_ranked_chunks(layout, y_true, y_score, groups, w, parsed,
                            probabilities=None, columns=None):
    # one ranking per relevance threshold (``rel``, a metric name's such as
    # "P(rel=2)@5"): its metrics rank y_true >= rel; the group info (its
    # n_relevant) is always the ranking's of y_true itself
    by_rel = {None: []}
    for item in parsed:
        by_rel.setdefault(item[2].get("rel"), []).append(item)
    info, parts = None, {}
    for rel, items in by_rel.items():
        relevance = y_true if rel is None else relevant_at(
            y_true, rel, layout, [name for name, _, _ in items])
        got, more = _ranked_pass(layout, relevance, y_score, groups, w, items,
                                 probabilities if rel is None else None,
                                 columns)
        info = got if info is None else info
        parts.update(more)
    return info, {name: parts[name] for name, _, _ in parsed}


def relevant_at(y_true, rel, layout, names):
    """``y_true >= rel`` as 0/1 grades (``rel="binary"``: y_true, which must
    hold only 0 and 1), for the metrics ``names`` of a relevance threshold."""
    what = ", ".join(repr(name) for name in names)
    if layout == "multiclass":
        raise ValueError(
            f"{what}: a relevance threshold (rel=) needs relevance grades in "
            f"y_true; in the multiclass layout the one relevant item of each "
            f"sample is its true class.")
    xp = namespace_of(y_true)
    if rel == "binary":
        if not bool(xp.all((y_true == 0) | (y_true == 1))):
            problem = (
                "holds grades other than 0 and 1, which "
                "ir_measures reads as gains when rel= is not given (graded "
                "RBP); this package's RBP counts an item as relevant or not. "
                "Name the threshold, e.g. 'RBP(rel=1)' (y_true >= 1 relevant).")
            raise InvalidArgumentError("y_true", f"{problem} ({what})",
                                       message=f"{what}: y_true {problem}")
        return y_true
    return astype(xp, y_true >= rel, xp.int8)  # (NumPy 1.x has no np.astype)


def _ranked_pass(layout, y_true, y_score, groups, w, parsed, probabilities=None,
                 columns=None):
    pieces = []
    for rg in ranked_chunks(layout, y_true, y_score, groups, w,
                            native=_native(parsed), probabilities=probabilities,
                            columns=_row_columns(layout, y_score, columns)):
        pieces.append(evaluate_ranked(rg, parsed))
    if len(pieces) == 1:
        return pieces[0]
    info = GroupInfo.concatenate(info for info, _ in pieces)
    parts = {name: Partials.concatenate(p[name] for _, p in pieces)
             for name, _, _ in parsed}
    return info, parts


def _row_columns(layout, y_score, columns):
    """The input door's optional columns, one entry per ranked row (the 2-D
    layout's rows flattened); none for the multiclass layout (no rows)."""
    if layout == "multiclass" or not columns:
        return {}
    if layout == "2d":
        n = y_score.shape[0] * y_score.shape[1]
        return {name: np.reshape(values, (n,) + tuple(np.shape(values)[2:]))
                for name, values in columns.items()}
    return dict(columns)


def evaluate(y_true, y_score, *, groups=None, sample_weight=None, labels=None,
             metrics, convention=None, negative_sampling_rate=None,
             pos_label=None, columns=None, checked=None):
    """The per-group partials of ``metrics`` under ``convention``.

    ``metrics`` is :func:`~._names.parse_metrics`' list.  Returns ``(info,
    parts, resolved)``: the :class:`~sklearn_rankeval._stats.GroupInfo` of
    the groups (with the convention's group weights), ``{name: Partials}``
    (the undefined-group rule applied) and the metrics as the aggregation
    must read them (the convention's options and default averages).  The
    per-group values depend only on each group's own rows, so the report,
    the per-group frame, the comparison of models, every batch of an
    accumulator and every partition of a distributed frame go through here.
    ``negative_sampling_rate``: see :func:`evaluate_chunked`; ``pos_label``:
    the positive class of label input (read by the one input door);
    ``columns``: the input's optional columns (:func:`evaluate_chunked`).
    ``checked``: the input as the door checked it already (a
    :class:`~sklearn_rankeval._engine.RankingInput`, e.g. the one a reader
    of top-N lists built), in place of ``y_true`` ... ``columns`` (None).
    """
    plan = convention_plan(metrics, convention)
    info, parts = _run(plan, y_true, y_score, groups=groups,
                       sample_weight=sample_weight, labels=labels,
                       convention=convention, pos_label=pos_label, columns=columns,
                       negative_sampling_rate=check_negative_sampling_rate(
                           negative_sampling_rate), checked=checked)
    return info, parts, [(name, spec, opts) for name, spec, opts, _ in plan]


def _run(plan, y_true, y_score, *, groups, sample_weight, labels, convention,
         docno=None, score_name="y_score", negative_sampling_rate=None,
         pos_label=None, columns=None, checked=None):
    """The one place a convention's switches act: ``(info, parts)`` of a plan.

    ``plan`` is ``[(name, spec, options, switches)]``
    (:func:`~._conventions.convention_plan`, or one metric's
    :func:`~._conventions.resolve`).  The input is ranked once per distinct
    ranking switch (``ties``, ``query_weight``: at most twice, e.g.
    torchmetrics' NDCG averages ties where its other metrics keep the input
    order); then each metric's data-dependent rules are checked, its
    undefined-group value applied, and the group weights its switches ask
    for set on the group info.
    """
    by_ranking = {}
    for name, spec, opts, switches in plan:
        key = (switches["ties"], switches["query_weight"])
        by_ranking.setdefault(key, []).append((name, spec, opts, switches))
    # the input, checked once for every ranking of the plan (the door's
    # one pass: labels, layout, weights, columns; or by the caller's reader);
    # a convention's switches derive the ranking's scores and weights from
    # the checked arrays
    if checked is None:
        checked = check_inputs(
            y_true, y_score, groups=groups, sample_weight=sample_weight,
            labels=labels, score_name=score_name, pos_label=pos_label,
            **_door_flags(spec for _, spec, _, _ in plan), **(columns or {}))
    weighted = checked.sample_weight is not None
    layout = checked.layout
    info, parts = None, {}
    for (ties, query_weight), items in by_ranking.items():
        score, weight = prepare(
            checked.y_score, checked.groups, checked.sample_weight, layout=layout,
            ties=ties, query_weight=query_weight, docno=docno,
            convention=convention, y_true=checked.y_true,
            metrics=[(spec, opts) for _, spec, opts, _ in items])
        ranked_info, ranked = evaluate_checked(
            replace(checked, y_score=score, sample_weight=weight),
            [(name, spec, opts) for name, spec, opts, _ in items],
            negative_sampling_rate)
        for name, spec, _, switches in items:
            check_result(convention, spec, ranked[name], ranked_info, switches,
                         weighted=weighted)
            undefined = switches["undefined"]
            if (undefined == "warn" and layout == "2d"
                    and spec.sklearn_undefined is not None):
                # scikit-learn's function of this name, in its own layout:
                # its value (ndcg_score scores a row without a relevant item 0)
                undefined = spec.sklearn_undefined
            parts[name] = apply_undefined(ranked[name], ranked_info.labels,
                                          undefined=undefined,
                                          label=spec.label,
                                          needs_negative=spec.needs_negative)
            if info is None or query_weight == "mean":
                info = group_info(ranked_info, switches, weighted=weighted)
            elif switches["group_weight"] == "positives":
                info = group_info(info, switches, weighted=weighted)
    return info, {name: parts[name] for name, *_ in plan}


def compute(name, y_true, y_score, *, groups=None, sample_weight=None, labels=None,
            average, undefined=None, judged=None, convention=None, ties=None,
            docno=None, query_weight=None, group_weight=None, score_name="y_score",
            negative_sampling_rate=None, pos_label=None, columns=None, **options):
    """A metric function's body: its switches, the pipeline, the average.

    ``score_name``: the function's name of ``y_score`` in messages;
    ``columns``: the input's optional columns (:func:`evaluate_chunked`).
    """
    spec = METRICS[name]
    reject_host_options((y_score, y_true, groups, sample_weight), judged=judged,
                        convention=convention, ties=ties,
                        docno=docno, query_weight=query_weight,
                        group_weight=group_weight)
    options, switches = resolve(spec, convention, {
        **options, "undefined": undefined, "ties": ties,
        "query_weight": query_weight, "group_weight": group_weight})
    options = spec.check_options(**options)
    average = spec.check_average(average)
    unjudged = checked = None
    if judged is not None:
        if not spec.accepts_judged:
            raise TypeError(f"{spec.func_name}() got an unexpected argument judged.")
        # the door reads the judged column with the rest, once
        checked = check_inputs(
            y_true, y_score, groups=groups, sample_weight=sample_weight,
            labels=labels, score_name=score_name, pos_label=pos_label,
            judged=judged, **_door_flags([spec]), **(columns or {}))
        if spec.judged_rule == "drop":
            checked = drop_unjudged(checked)
        else:
            checked, unjudged = zero_unjudged(checked)
    info, parts = _run([(name, spec, options, switches)], y_true, y_score,
                       groups=groups, sample_weight=sample_weight, labels=labels,
                       convention=convention, docno=docno, score_name=score_name,
                       pos_label=pos_label, columns=columns,
                       negative_sampling_rate=check_negative_sampling_rate(
                           negative_sampling_rate), checked=checked)
    part = parts[name]
    if (groups is None and not spec.pools_undefined
            and layout_of(y_true, y_score, labels) == "long"):
        warn(f"{spec.func_name} was called without groups: all the rows are "
             f"scored as one group (one ranking). Pass groups= (the query or "
             f"user of each row) to score each group and average over groups.",
             UserWarning)
    if unjudged is not None and spec.judged_rule == "residual":
        # the expected RBP weight of the unjudged items' ranks: RBP with the
        # unjudged rows as the "relevant" ones (linear in the rank weights,
        # so exact under ties too), on the same scores and groups
        rbp = METRICS["rbp"]
        _, extra = evaluate_checked(
            replace(checked, y_true=unjudged.astype(np.int8)),
            [("rbp", rbp, rbp.check_options(p=options["p"]))])
        part = part._replace(value=part.value + extra["rbp"].value)
    return spec.aggregate(part, info, average=group_average(average, switches),
                          undefined="warn" if switches["undefined"] == "warn"
                          else "skip")


def drop_unjudged(checked):
    """The rows whose ``judged`` column is True, in the long layout.

    ``checked``: the input door's :class:`~sklearn_rankeval._engine.RankingInput`
    with its ``judged`` column; 2-D input (one query per row) becomes the
    long layout with the row index as group and the query weight repeated
    on its items (:meth:`~sklearn_rankeval._engine.RankingInput.to_long`).
    A group none of whose rows is judged keeps its first row, made
    non-relevant, so that it still has a place (an undefined one) in the
    per-group output.  Returns the checked input of those rows.
    """
    long = checked.to_long()
    mask = np.asarray(long.columns["judged"])
    n = mask.shape[0]
    groups = (np.zeros(n, dtype=np.int64) if long.groups is None
              else long.groups)
    # a group without any judged row keeps its first row, as non-relevant
    # (the groups by the engine's one encoding)
    index, labels = encode_rows(groups, n)
    n_groups = len(labels)
    has_judged = np.bincount(index, weights=mask, minlength=n_groups) > 0
    first = np.full(n_groups, n, dtype=np.int64)
    np.minimum.at(first, index, np.arange(n))
    placeholder = first[~has_judged]
    keep = mask.copy()
    keep[placeholder] = True
    y_true = np.asarray(long.y_true).astype(np.float64)
    y_true[placeholder] = 0.0
    return replace(long, y_true=y_true, groups=groups).take(keep)


def zero_unjudged(checked):
    """The checked input with its unjudged rows made non-relevant, and the
    unjudged mask (``checked``: the door's input with its ``judged``
    column).

    The unjudged rows keep their place in the ranking (as trec_eval's rbp
    counts an unjudged document: a rank without gain).
    """
    mask = np.asarray(checked.columns["judged"])
    return replace(checked, y_true=np.where(mask, checked.y_true, 0)), ~mask


