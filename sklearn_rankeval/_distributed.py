"""What the Spark and Dask adapters share (``spark.py``, ``dask.py``).

Neither engine is imported here.  The adapters move the rows once (a shuffle
by group), run the engine on each partition, and send back one row of
*partials* per group: the :class:`~._kernels.GroupInfo` columns and, per
metric, its :class:`~._kernels.Partials` (``value``, ``defined``, and
``num``/``den`` for pooled averages).  :func:`reduce_partials` then sorts the
groups by id and aggregates them with the code of :func:`ranking_report`
(``_report._summaries``), in the same order, so that the values are those of
``ranking_report`` on the collected rows.
"""

import numpy as np

from ._chunked import evaluate_ranked
from ._engine import rank_groups
from ._kernels import GroupInfo, Partials
from ._registry import parse_metrics
from ._report import _summaries

__all__ = [
    "INFO_COLUMNS",
    "check_column_types",
    "check_columns",
    "check_frame",
    "metric_plan",
    "partial_columns",
    "reduce_partials",
    "summarize_partials",
]

#: The GroupInfo fields sent back per group, besides the group id.
INFO_COLUMNS = ("n_items", "n_relevant", "weight", "query_weight",
                "item_macro_weight")
#: The per-group frame's columns besides the id and the metrics.
FRAME_COLUMNS = ("n_items", "n_relevant", "weight")
ROLES = ("y_true", "y_score", "groups", "sample_weight")


def check_columns(columns, **names):
    """Check the column-name arguments against the frame's ``columns``.

    ``names`` maps an argument (``y_true``, ``y_score``, ``groups``,
    ``sample_weight``) to a column name; None is allowed for
    ``sample_weight`` only.  Raises a ``TypeError`` for a name that is not a
    string and a ``ValueError`` naming the argument and listing the columns
    for a name that is not a column.
    """
    columns = [str(c) for c in columns]
    for arg in ROLES:
        name = names.get(arg)
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


def metric_plan(metrics, group_column):
    """``(names, pooled)`` of the metrics: their names, and which of them
    need the numerator and denominator (pooled averages).

    The metric names are checked here, on the driver (the same ``ValueError``
    as in memory); a metric column named as the group column is an error.
    """
    parsed = parse_metrics(metrics)
    names = [name for name, _, _ in parsed]
    clash = set(names) & {group_column, *FRAME_COLUMNS}
    if clash:
        raise ValueError(
            f"groups: the group column {group_column!r} has the name of an output "
            f"column ({', '.join(sorted(clash))}); rename it."
        )
    # which partials carry num/den: read off a two-row ranking
    ranked = rank_groups(np.array([1, 0]), np.array([1.0, 0.0]))
    _, parts = evaluate_ranked(ranked, parsed)
    pooled = {name: parts[name].num is not None for name in names}
    return names, pooled


def partial_columns(info, parts, names, pooled):
    """The per-group partials as flat columns (``m<i>_<field>`` per metric)."""
    out = {"group": info.labels}
    for field in INFO_COLUMNS:
        out[field] = getattr(info, field)
    for i, name in enumerate(names):
        p = parts[name]
        out[f"m{i}_value"] = np.asarray(p.value, dtype=np.float64)
        out[f"m{i}_defined"] = np.asarray(p.defined, dtype=bool)
        if pooled[name]:
            out[f"m{i}_num"] = np.asarray(p.num, dtype=np.float64)
            out[f"m{i}_den"] = np.asarray(p.den, dtype=np.float64)
    return out


def partial_dtypes(names, pooled):
    """``[(column, numpy dtype)]`` of :func:`partial_columns`, after the id."""
    out = [("n_items", np.int64), ("n_relevant", np.int64)]
    out += [(field, np.float64) for field in INFO_COLUMNS[2:]]
    for i, name in enumerate(names):
        out += [(f"m{i}_value", np.float64), (f"m{i}_defined", np.bool_)]
        if pooled[name]:
            out += [(f"m{i}_num", np.float64), (f"m{i}_den", np.float64)]
    return out


def reduce_partials(columns, names, pooled, *, order=None):
    """``{metric: value}`` from the partials of every group (dict of arrays).

    The groups are put in sorted id order first, the order of the in-memory
    aggregation, so that the sums are the same sums (``order``: that
    permutation, if the caller has it already).
    """
    labels = np.asarray(columns["group"])
    if labels.shape[0] == 0:
        raise ValueError("y_score is empty: at least one sample is required.")
    if order is None:
        order = np.argsort(labels, kind="stable")
    labels = labels[order]
    if labels.shape[0] > 1 and (labels[1:] == labels[:-1]).any():  # pragma: no cover
        raise RuntimeError("groups: a group came back from two partitions; the "
                           "rows were not partitioned by group.")
    info = GroupInfo(labels, *(np.asarray(columns[f])[order] for f in INFO_COLUMNS))
    parts = {}
    for i, name in enumerate(names):
        num = den = None
        if pooled[name]:
            num = np.asarray(columns[f"m{i}_num"], dtype=np.float64)[order]
            den = np.asarray(columns[f"m{i}_den"], dtype=np.float64)[order]
        parts[name] = Partials(
            np.asarray(columns[f"m{i}_value"], dtype=np.float64)[order],
            np.asarray(columns[f"m{i}_defined"], dtype=bool)[order], num, den)
    parsed = parse_metrics(names)
    return {name: value for name, (value, _) in
            _summaries(info, parts, parsed).items()}


def summarize_partials(columns, names, pooled, *, per_group=False):
    """``(report, per-group dict or None, n_rows, n_groups)`` of the partials.

    What ``rankeval evaluate --engine`` prints, from the one collection of
    the partials: the per-group values (sorted by id, NaN where undefined)
    need no second job.
    """
    labels = np.asarray(columns["group"])
    order = np.argsort(labels, kind="stable")
    report = reduce_partials(columns, names, pooled, order=order)
    per = None
    if per_group:
        per = {"group": labels[order]}
        for i, name in enumerate(names):
            defined = np.asarray(columns[f"m{i}_defined"], dtype=bool)[order]
            value = np.asarray(columns[f"m{i}_value"], dtype=np.float64)[order]
            per[name] = np.where(defined, value, np.nan)
    n_rows = int(np.sum(np.asarray(columns["n_items"], dtype=np.int64)))
    return report, per, n_rows, int(labels.shape[0])
