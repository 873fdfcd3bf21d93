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

import numpy as np

from .._core import (
    asarray,
    device_of,
    namespace_of,
    reject_host_options,
    to_numpy,
    validate_relevance,
    validate_sample_weight,
    validate_scores,
)
from .._engine import check_inputs, grouped_rows, ranked_chunks
from .._stats import GroupInfo, Partials, apply_undefined
from ._conventions import (
    check_convention,
    check_result,
    convention_plan,
    group_average,
    group_info,
    prepare,
    resolve,
)
from ._registry import METRICS

__all__ = ["compute", "drop_unjudged", "evaluate_chunked",
           "evaluate_convention", "evaluate_ranked", "zero_unjudged"]


def evaluate_ranked(rg, parsed):
    """``(GroupInfo, {name: Partials})`` of the parsed metrics on one ranking."""
    return GroupInfo.from_ranked(rg), {name: spec.partials(rg, **options)
                                       for name, spec, options in parsed}


def _native(parsed):
    """The statistics for the engine's compiled pass to compute itself (None
    for a metric without one: the engine then builds the blocks its kernel
    reads)."""
    return [(spec.native, options) for _, spec, options in parsed]


def evaluate_chunked(y_true, y_score, *, groups=None, sample_weight=None,
                     labels=None, parsed=()):
    """The per-group partials of ``parsed`` metrics, ranked chunk by chunk.

    Returns what ``evaluate_ranked(rank_groups(...), parsed)`` returns (the
    groups in the same order, the same values), with the engine's memory
    bounded by ``working_memory``.  ``parsed`` is a list of ``(name, spec,
    options)`` (:func:`~._registry.parse_metrics`).
    """
    layout, y_true, y_score, groups, w = check_inputs(
        y_true, y_score, groups=groups, sample_weight=sample_weight, labels=labels)
    unranked = [(name, spec, options) for name, spec, options in parsed
                if not spec.ranked]
    if unranked:
        # the CTR metrics read the rows of each group as they come: no sort
        rows = grouped_rows(layout, y_true, y_score, groups, w,
                            native=_native(unranked))
        extra = {name: spec.partials(rows, **options)
                 for name, spec, options in unranked}
        rows_info = GroupInfo.from_ranked(rows)
        xp = namespace_of(y_score)
        if xp is not np:  # computed on the host, returned in the input's library
            device = device_of(y_score)
            extra = {name: Partials(*(None if a is None else asarray(xp, a, device)
                                      for a in p)) for name, p in extra.items()}
            rows_info = GroupInfo(*(asarray(xp, a, device) if i else a
                                    for i, a in enumerate(rows_info)))
        if len(unranked) == len(parsed):
            return rows_info, extra
        info, parts = _evaluate_ranked_chunks(
            layout, y_true, y_score, groups, w, [p for p in parsed if p[1].ranked])
        _check_same_groups(info, rows)
        return info, {name: parts[name] if name in parts else extra[name]
                      for name, _, _ in parsed}
    return _evaluate_ranked_chunks(layout, y_true, y_score, groups, w, parsed)


def _check_same_groups(info, rows):  # pragma: no cover - an internal invariant
    if not np.array_equal(np.asarray(to_numpy(info.labels)), rows.labels):
        raise RuntimeError("the ranked and the unranked groups differ")


def _evaluate_ranked_chunks(layout, y_true, y_score, groups, w, parsed):
    pieces = []
    for rg in ranked_chunks(layout, y_true, y_score, groups, w,
                            native=_native(parsed)):
        pieces.append(evaluate_ranked(rg, parsed))
    if len(pieces) == 1:
        return pieces[0]
    info = GroupInfo.concatenate(info for info, _ in pieces)
    parts = {name: Partials.concatenate(p[name] for _, p in pieces)
             for name, _, _ in parsed}
    return info, parts


def evaluate_convention(evaluate, y_true, y_score, *, groups, sample_weight, parsed,
                        convention):
    """The partials of ``parsed`` under a convention: ``(info, parts, parsed)``.

    The metrics as :func:`convention_plan` sets them; the input is ranked
    once per distinct ranking switch (``ties``, ``query_weight``: at most
    twice, e.g. torchmetrics' NDCG averages ties where its other metrics
    keep the input order).  The undefined-group value is applied to the
    partials.  ``evaluate(y_true, y_score, groups=, sample_weight=,
    parsed=)`` returns ``(info, parts)``: the per-group values depend only
    on each group's own rows, so the report, the per-group frame and every
    batch of an accumulator go through here.  ``convention=None``: this
    library's own rules, one ``evaluate`` of ``parsed``.
    """
    if convention is None:
        return (*evaluate(y_true, y_score, groups=groups,
                          sample_weight=sample_weight, parsed=parsed), parsed)
    convention = check_convention(convention)

    by_ranking = {}
    for name, spec, opts, switches in convention_plan(parsed, convention):
        key = (switches["ties"], switches["query_weight"])
        by_ranking.setdefault(key, []).append((name, spec, opts, switches))
    weighted = sample_weight is not None
    info, parts, resolved = None, {}, {}
    for (ties, query_weight), items in by_ranking.items():
        score, weight = prepare(
            y_score, groups, sample_weight, ties=ties, query_weight=query_weight,
            convention=convention, y_true=y_true,
            metrics=[(spec, opts) for _, spec, opts, _ in items])
        ranked_info, ranked = evaluate(
            y_true, score, groups=groups, sample_weight=weight,
            parsed=[(name, spec, opts) for name, spec, opts, _ in items])
        for name, spec, opts, switches in items:
            check_result(convention, spec, ranked[name], ranked_info, switches,
                         weighted=weighted)
            parts[name] = apply_undefined(ranked[name], ranked_info.labels,
                                          undefined=switches["undefined"],
                                          label=spec.label,
                                          needs_negative=spec.needs_negative)
            resolved[name] = (name, spec, opts)
            if info is None or query_weight == "mean":
                info = group_info(ranked_info, switches, weighted=weighted)
            elif switches["group_weight"] == "positives":
                info = group_info(info, switches, weighted=weighted)
    order = [name for name, _, _ in parsed]
    return (info, {name: parts[name] for name in order},
            [resolved[name] for name in order])


def compute(name, y_true, y_score, *, groups=None, sample_weight=None, labels=None,
            average, undefined=None, judged=None, convention=None, ties=None,
            docno=None, query_weight=None, group_weight=None, **options):
    """A metric function's body: check the options, rank (chunk by chunk), aggregate."""
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
    undefined = switches["undefined"]
    y_score, sample_weight = prepare(
        y_score, groups, sample_weight, ties=switches["ties"], docno=docno,
        query_weight=switches["query_weight"], convention=convention,
        y_true=y_true, labels=labels, metrics=[(spec, options)])
    unjudged = None
    if judged is not None:
        if not spec.accepts_judged:
            raise TypeError(f"{spec.func_name}() got an unexpected argument judged.")
        if spec.judged_rule == "drop":
            y_true, y_score, groups, sample_weight = drop_unjudged(
                y_true, y_score, groups, sample_weight, judged)
        else:
            y_true, unjudged = zero_unjudged(y_true, y_score, judged)
    info, parts = evaluate_chunked(y_true, y_score, groups=groups,
                                   sample_weight=sample_weight, labels=labels,
                                   parsed=[(name, spec, options)])
    if unjudged is not None and spec.judged_rule == "residual":
        # the expected RBP weight of the unjudged items' ranks: RBP with the
        # unjudged rows as the "relevant" ones (linear in the rank weights,
        # so exact under ties too), on the same scores and groups
        rbp = METRICS["rbp"]
        _, extra = evaluate_chunked(
            unjudged.astype(np.int8), y_score, groups=groups,
            sample_weight=sample_weight,
            parsed=[("rbp", rbp, rbp.check_options(p=options["p"]))])
        part = parts[name]
        parts[name] = part._replace(value=part.value + extra["rbp"].value)
    check_result(convention, spec, parts[name], info, switches,
                 weighted=sample_weight is not None)
    average, info = group_average(average, info, switches,
                                  weighted=sample_weight is not None)
    return spec.aggregate(parts[name], info, average=average, undefined=undefined)


def _check_judged(y_true, y_score, judged):
    """Validated ``y_true``, ``y_score`` and the boolean ``judged`` mask."""
    y_score = validate_scores(y_score)
    mask = np.asarray(judged)
    if mask.dtype != bool:
        raise TypeError(f"judged must be an array of booleans, got dtype "
                        f"{mask.dtype}.")
    if mask.shape != y_score.shape:
        raise ValueError(f"judged must have the shape of y_score "
                         f"{y_score.shape}, got {mask.shape}.")
    y_true = validate_relevance(y_true)
    if y_true.shape != y_score.shape:
        raise ValueError(
            f"judged needs y_true of the shape of y_score {y_score.shape} (no "
            f"multiclass input), got {y_true.shape}.")
    return y_true, y_score, mask


def drop_unjudged(y_true, y_score, groups, sample_weight, judged):
    """The rows with ``judged`` True, in the long layout.

    2-D input (one query per row) becomes the long layout with the row index
    as group and the query weight repeated on its items.  A group none of
    whose rows is judged keeps its first row, made non-relevant, so that it
    still has a place (an undefined one) in the per-group output.
    """
    y_true, y_score, mask = _check_judged(y_true, y_score, judged)
    if y_score.ndim == 2:
        if groups is not None:
            raise ValueError("groups must be None when y_score is 2-D.")
        n_queries, n_items = y_score.shape
        groups = np.repeat(np.arange(n_queries), n_items)
        if sample_weight is not None:
            sample_weight = np.repeat(
                validate_sample_weight(sample_weight, n_queries, "query (row)"),
                n_items)
        y_true, y_score, mask = y_true.ravel(), y_score.ravel(), mask.ravel()
    elif groups is None:
        groups = np.zeros(y_score.shape[0], dtype=np.int64)
    else:
        if hasattr(groups, "to_numpy") and not isinstance(groups, np.ndarray):
            groups = groups.to_numpy()
        groups = np.asarray(groups)
        if groups.shape != y_score.shape:
            raise ValueError(f"groups must be 1-D with one id per row of y_score "
                             f"({y_score.shape[0]}), got shape {groups.shape}.")
    if sample_weight is not None:
        sample_weight = validate_sample_weight(sample_weight, y_score.shape[0], "row")
    # a group without any judged row keeps its first row, as non-relevant
    codes = np.unique(groups, return_index=True, return_inverse=True)
    _, first, inverse = codes
    has_judged = np.bincount(inverse.reshape(-1), weights=mask,
                             minlength=len(first)) > 0
    placeholder = first[~has_judged]
    keep = mask.copy()
    keep[placeholder] = True
    y_true = y_true.astype(np.float64)
    y_true[placeholder] = 0.0
    return (y_true[keep], y_score[keep], groups[keep],
            None if sample_weight is None else sample_weight[keep])


def zero_unjudged(y_true, y_score, judged):
    """``y_true`` with its unjudged rows made non-relevant, and the unjudged mask.

    The unjudged rows keep their place in the ranking (as trec_eval's rbp
    counts an unjudged document: a rank without gain).
    """
    y_true, y_score, mask = _check_judged(y_true, y_score, judged)
    return np.where(mask, y_true, 0), ~mask
