"""What the Spark and Dask adapters share (``spark.py``, ``dask.py``).

Neither engine is imported here.  The adapters move the rows once (a shuffle
by group), feed each partition to a :class:`~sklearn_rankeval.RankingAccumulator`
and send back its :meth:`~sklearn_rankeval.RankingAccumulator.partials`, one
row per group (:func:`partial_columns`: the group columns and, per metric,
its partial results as ``m<i>_<field>``).  :func:`reduce_partials` turns the
collected rows back into an accumulator
(:meth:`~sklearn_rankeval.RankingAccumulator.from_partials`), which sorts the
groups by id and aggregates them as :func:`ranking_report` does, so that the
values are those of ``ranking_report`` on the collected rows.

Under ``convention=``, a rule that orders tied items as the input does needs
the rows of each group in the frame's order after the shuffle: the adapters
then carry a position column (:func:`needs_input_order`).
"""

from typing import NamedTuple

import numpy as np

from .._metrics import (
    check_convention,
    needs_input_order,
    parse_metrics,
    resolved_metrics,
    substitute_doc,
)
from .._reports import RankingAccumulator
from .._stats import GroupInfo

__all__ = [
    "INFO_COLUMNS",
    "accumulate",
    "accumulator_of",
    "check_column_types",
    "check_columns",
    "check_frame",
    "input_order_column",
    "metric_plan",
    "partial_columns",
    "reduce_partials",
    "ParquetReport",
    "parquet_doc",
    "summarize_partials",
]

#: The GroupInfo fields sent back per group, besides the group id.
INFO_COLUMNS = GroupInfo._fields[1:]
#: The per-group frame's columns besides the id and the metrics.
FRAME_COLUMNS = ("n_items", "n_relevant", "weight")


def check_columns(columns, **names):
    """Check the column-name arguments against the frame's ``columns``.

    ``names`` maps an argument (``y_true``, ``y_score``, ``groups``,
    ``sample_weight``; a click log's ``clicks``, ``positions``) to a column
    name, in the order they are checked; None is allowed for
    ``sample_weight`` only.  Raises a ``TypeError`` for a name that is not a
    string and a ``ValueError`` naming the argument and listing the columns
    for a name that is not a column.
    """
    columns = [str(c) for c in columns]
    for arg, name in names.items():
        if name is None and arg == "sample_weight":
            continue
        if not isinstance(name, str):
            raise TypeError(f"{arg} must be a column name (str), got "
                            f"{type(name).__name__}.")
        if name not in columns:
            raise ValueError(
                f"{arg}: the DataFrame has no column {name!r}; its columns are "
                f"{', '.join(repr(c) for c in columns)}."
            )


def check_frame(frame, frame_type, arg, type_name, **names):
    """Check the frame argument, then its column-name arguments.

    A ``TypeError`` ("``arg`` must be a ``type_name``, got ...") if ``frame``
    is not a ``frame_type``; then :func:`check_columns` of ``frame.columns``
    and ``names``.
    """
    if not isinstance(frame, frame_type):
        raise TypeError(f"{arg} must be a {type_name}, got "
                        f"{type(frame).__name__}.")
    check_columns(frame.columns, **names)


def check_column_types(wanted, types, word, shown=None):
    """Check the type of each named column.

    ``wanted`` lists ``(argument, column name or None, ok, what)``: a
    ``TypeError`` for the first column whose type ``types[name]`` fails
    ``ok``, saying that it has ``word`` (``"dtype"``, ``"type"``) ``shown``
    of that type (the type itself by default) and that a ``what`` column is
    needed.  A column name of None (no ``sample_weight``) is skipped.
    """
    for arg, name, ok, what in wanted:
        if name is not None and not ok(types[name]):
            kind = types[name] if shown is None else shown(types[name])
            raise TypeError(f"{arg}: column {name!r} has {word} {kind}; a "
                            f"{what} column is needed.")


def metric_plan(metrics, group_column, convention=None, *, parsed=None):
    """``(names, pooled)`` of the metrics: their names, and how many additive
    statistics each pooled (``"micro"``) average needs (0: none).

    The metric names and the convention are checked here, on the driver (the
    same ``ValueError`` as in memory: a metric the convention lacks, or a
    rule it cannot follow); a metric column named as the group column is an
    error.  ``parsed``: the metrics as a report's own reader read them
    (``[(name, spec, options)]``, the counterfactual report's), whose
    partials go to the driver only (no per-group frame); ``metrics`` is then
    not read.
    """
    if parsed is None:
        parsed = resolved_metrics(parse_metrics(metrics), check_convention(convention))
        clash = {name for name, _, _ in parsed} & {group_column, *FRAME_COLUMNS}
        if clash:
            raise ValueError(
                f"groups: the group column {group_column!r} has the name of an "
                f"output column ({', '.join(sorted(clash))}); rename it."
            )
    names = [name for name, _, _ in parsed]
    # which partials carry statistics, and how many: as the registry declares
    pooled = {name: spec.statistics(**options) for name, spec, options in parsed}
    return names, pooled


def accumulate(chunks, names, *, convention=None, group_rows="complete",
               metric_table=None):
    """The :class:`~sklearn_rankeval.RankingAccumulator` of a partition's
    rows, fed ``(y_true, y_score, groups, sample_weight)`` chunk by chunk
    (``group_rows="sorted"``: a group cut at the end of a chunk goes on in
    the next), or None if the partition has no row.  ``metric_table``: the
    table the names are read from (None: the registry's)."""
    acc = RankingAccumulator(names, group_rows=group_rows, convention=convention,
                             metric_table=metric_table)
    for y_true, y_score, groups, weight in chunks:
        acc.update(y_true, y_score, groups=groups, sample_weight=weight)
    return acc if acc.n_rows_ else None


def input_order_column(names, convention, used):
    """The name of a position column, if a metric orders ties as the input
    does under ``convention`` (else None); a name not in ``used``."""
    if not needs_input_order(parse_metrics(names), convention):
        return None
    name = "__rankeval_position"
    while name in used:
        name += "_"
    return name


def partial_columns(state, names, pooled):
    """:meth:`RankingAccumulator.partials` as flat columns (``m<i>_<field>``)."""
    out = {"group": state["group"]}
    for field in INFO_COLUMNS:
        out[field] = state["info"][field]
    for i, name in enumerate(names):
        p = state["partials"][name]
        out[f"m{i}_value"] = np.asarray(p["value"], dtype=np.float64)
        out[f"m{i}_defined"] = np.asarray(p["defined"], dtype=bool)
        for j in range(pooled[name]):
            out[f"m{i}_s{j}"] = np.asarray(p["stats"][j], dtype=np.float64)
    return out


def concat_partial_columns(parts):
    """The :func:`partial_columns` of several partitions as one (``{}`` for
    none: :func:`accumulator_of` then says the input is empty)."""
    parts = list(parts)
    return ({name: np.concatenate([p[name] for p in parts]) for name in parts[0]}
            if parts else {})


def accumulator_of(columns, names, pooled, convention=None, metric_table=None):
    """The accumulator of the collected :func:`partial_columns` of every group."""
    labels = np.asarray(columns["group"])
    if labels.shape[0] == 0:
        raise ValueError("y_score is empty: at least one sample is required.")
    partials = {}
    for i, name in enumerate(names):
        partials[name] = {field: np.asarray(columns[f"m{i}_{field}"])
                          for field in ("value", "defined")}
        if pooled[name]:
            partials[name]["stats"] = np.stack(
                [np.asarray(columns[f"m{i}_s{j}"], dtype=np.float64)
                 for j in range(pooled[name])])
    return RankingAccumulator.from_partials({
        "metrics": list(names), "convention": convention,
        "metric_table": metric_table, "group": labels,
        "info": {field: np.asarray(columns[field]) for field in INFO_COLUMNS},
        "partials": partials,
    })


def partial_dtypes(names, pooled):
    """``[(column, numpy dtype)]`` of :func:`partial_columns`, after the id."""
    out = [("n_items", np.int64), ("n_relevant", np.int64)]
    out += [(field, np.float64) for field in INFO_COLUMNS[2:]]
    for i, name in enumerate(names):
        out += [(f"m{i}_value", np.float64), (f"m{i}_defined", np.bool_)]
        out += [(f"m{i}_s{j}", np.float64) for j in range(pooled[name])]
    return out


def reduce_partials(columns, names, pooled, *, convention=None):
    """``{metric: value}`` from the partials of every group (dict of arrays).

    The groups come back in any order: the accumulator of their partials
    sorts them by id, the order of the in-memory aggregation, so that the
    sums are the same sums.
    """
    return accumulator_of(columns, names, pooled, convention).result()


class ParquetReport(NamedTuple):
    """What ``evaluate_parquet`` of :mod:`sklearn_rankeval.spark` and
    :mod:`sklearn_rankeval.dask` returns: the report ``{metric: value}``,
    the per-group values (``{"group": ids, metric: values}``, sorted by id,
    NaN where undefined; None unless asked), the number of rows and the
    number of groups."""

    report: dict
    per_group: object
    n_rows: int
    n_groups: int


#: The parameters and result of ``evaluate_parquet`` (Spark and Dask alike).
PARQUET_DOCS = {"parquet_parameters": """\
Parameters
----------
path : str or path-like
    A Parquet file, a folder of Parquet files or a glob.
y_true, y_score, groups : str
    The names of the relevance, score and group-id columns.
metrics : list of str, default=None
    Metric names as :func:`~sklearn_rankeval.get_scorer_names` lists
    them (None: the default set of :func:`ranking_report`).
per_group : bool, default=False
    Also return every group's values.

Returns
-------
result : ParquetReport
    A named tuple ``(report, per_group, n_rows, n_groups)``: the report
    ``{metric: value}``, the per-group values ``{"group": ids, metric:
    values}`` sorted by id (None unless ``per_group``), the number of rows
    and of groups."""}


def parquet_doc(func):
    """Substitute :data:`PARQUET_DOCS` in ``evaluate_parquet``'s docstring."""
    return substitute_doc(func, PARQUET_DOCS)


def summarize_partials(columns, names, pooled, *, per_group=False, convention=None):
    """A :class:`ParquetReport` ``(report, per-group dict or None, n_rows,
    n_groups)`` of the partials.

    What ``rankeval evaluate --engine`` prints, from the one collection of
    the partials: the per-group values (sorted by id, NaN where undefined)
    need no second job.
    """
    acc = accumulator_of(columns, names, pooled, convention)
    report = acc.result()
    per = None
    if per_group:
        frame = acc.per_group(output="dict")
        per = {key: frame[key] for key in ("group", *names)}
    n_rows = int(np.sum(np.asarray(columns["n_items"], dtype=np.int64)))
    return ParquetReport(report, per, n_rows, int(len(columns["group"])))
