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
    "FrameInputs",
    "ParquetReport",
    "frame_doc",
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


class FrameInputs(NamedTuple):
    """Which frame columns feed the accumulator beside the score and the
    group id: ``y_true`` (one column, or one per intent: grades per intent),
    the diversity metrics' ``intent_weights`` (one column per intent, or
    none) and the exposure metrics' ``samples``, ``items`` (a column or
    None) and ``item_groups`` (one column per dimension, or none).
    ``arrays``: the names among them whose column holds one array per row
    (Spark's ``array<...>`` columns: the grades, or the weights, of every
    intent in one column)."""

    y_true: tuple
    intent_weights: tuple = ()
    samples: object = None
    items: object = None
    item_groups: tuple = ()
    arrays: frozenset = frozenset()
    listed: bool = False
    #: ``((name, the frame's name), ...)`` after :meth:`renamed` (messages)
    original: tuple = ()

    @classmethod
    def of(cls, y_true, *, intent_weights=None, samples=None, items=None,
           item_groups=None):
        """The arguments of a Spark or Dask function, read: a name (str) or,
        for ``y_true``, ``intent_weights`` and ``item_groups``, a non-empty
        list of names.  ``y_true`` as a list: grades per intent, one column
        per intent."""
        return cls(_names(y_true, "y_true"),
                   _names(intent_weights, "intent_weights", optional=True),
                   _name(samples, "samples"), _name(items, "items"),
                   _names(item_groups, "item_groups", optional=True),
                   listed=not isinstance(y_true, str))

    def with_arrays(self, arrays):
        """The same inputs, the columns ``arrays`` read as one array per row."""
        return self._replace(arrays=frozenset(arrays))

    @property
    def per_intent(self):
        """Whether ``y_true`` holds grades per intent (2-D): a list of
        columns, or one column of arrays."""
        return self.listed or self.y_true[0] in self.arrays

    def roles(self):
        """``[(argument, column name)]`` of every column given, in the order
        they are checked."""
        out = [("y_true", name) for name in self.y_true]
        out += [("intent_weights", name) for name in self.intent_weights]
        out += [(arg, name) for arg, name in (("samples", self.samples),
                                              ("items", self.items))
                if name is not None]
        out += [("item_groups", name) for name in self.item_groups]
        return out

    def renamed(self, alias):
        """The same inputs under the names ``alias(argument, j)`` (the
        ``j``-th column of the argument), ``arrays`` renamed too."""
        def each(names, arg):
            return tuple(alias(arg, j) for j in range(len(names)))

        arrays = {alias("y_true", 0)} if self.y_true[0] in self.arrays else set()
        if self.intent_weights and self.intent_weights[0] in self.arrays:
            arrays.add(alias("intent_weights", 0))
        original, seen = [], {}
        for arg, name in self.roles():
            seen[arg] = seen.get(arg, -1) + 1
            original.append((alias(arg, seen[arg]), name))
        return FrameInputs(
            each(self.y_true, "y_true"),
            each(self.intent_weights, "intent_weights"),
            None if self.samples is None else alias("samples", 0),
            None if self.items is None else alias("items", 0),
            each(self.item_groups, "item_groups"), frozenset(arrays), self.listed,
            tuple(original))

    def read(self, get):
        """``(y_true, columns)`` of a partition: ``get(name)`` gives a column
        as a NumPy array; grades (and weights) per intent as 2-D arrays,
        ``columns`` the keyword arguments of
        :meth:`~sklearn_rankeval.RankingAccumulator.update`."""
        def matrix(names, arg):
            if names[0] in self.arrays:
                return _array_column(get(names[0]), arg,
                                     dict(self.original).get(names[0], names[0]))
            return np.column_stack([get(name) for name in names])

        y_true = (matrix(self.y_true, "y_true") if self.per_intent
                  else get(self.y_true[0]))
        columns = {}
        if self.intent_weights:
            columns["intent_weights"] = matrix(self.intent_weights,
                                               "intent_weights")
        for arg in ("samples", "items"):
            if getattr(self, arg) is not None:
                columns[arg] = get(getattr(self, arg))
        if self.item_groups:
            columns["item_groups"] = (
                get(self.item_groups[0]) if len(self.item_groups) == 1
                else np.column_stack([np.asarray(get(name), dtype=object)
                                      for name in self.item_groups]))
        return y_true, columns


def _name(value, arg):
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{arg} must be a column name (str), got "
                        f"{type(value).__name__}.")
    return value


def _names(value, arg, optional=False):
    """A column name or a non-empty list of names, as a tuple."""
    if value is None and optional:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(v, str) for v in value):
        return tuple(value)
    raise TypeError(f"{arg} must be a column name (str) or a non-empty list of "
                    f"column names, got {value!r}.")


def _array_column(values, arg, name):
    """A column of one array per row (Spark's ``array<...>``) as a 2-D float
    array, every array of one length and no null."""
    values = np.asarray(values, dtype=object)
    if values.shape[0] == 0:
        return np.zeros((0, 0))
    try:
        out = np.stack([np.asarray(v, dtype=np.float64) for v in values])
    except (TypeError, ValueError):
        raise ValueError(
            f"{arg}: column {name!r} must hold an array of one length on every "
            f"row (one value per intent), without nulls.") from None
    if out.ndim != 2:
        raise ValueError(
            f"{arg}: column {name!r} must hold an array of one length on every "
            f"row (one value per intent), without nulls.")
    return out


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
    rows, fed ``(y_true, y_score, groups, sample_weight[, columns])`` chunk
    by chunk (``columns``: the optional columns, :meth:`FrameInputs.read`)
    (``group_rows="sorted"``: a group cut at the end of a chunk goes on in
    the next), or None if the partition has no row.  ``metric_table``: the
    table the names are read from (None: the registry's)."""
    acc = RankingAccumulator(names, group_rows=group_rows, convention=convention,
                             metric_table=metric_table)
    for y_true, y_score, groups, weight, *columns in chunks:
        acc.update(y_true, y_score, groups=groups, sample_weight=weight,
                   **(columns[0] if columns else {}))
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


#: The parameters of the diversity and exposure columns (Spark and Dask alike).
FRAME_DOCS = {
    "y_true_frame": """\
y_true : str or list of str
    Name of the relevance column (numeric ``>= 0``, or boolean).  Grades per
    intent, for the diversity metrics (``alpha_ndcg@10``, ``err_ia@20``,
    ...): a list of numeric columns, one per intent (``["intent_0",
    "intent_1", ...]``, the columns of the in-memory functions' 2-D
    ``y_true``)%(array_grades)s.""",
    "frame_columns": """\
intent_weights : str or list of str, default=None
    The diversity metrics' intent probabilities ``P(i | q)``: one numeric
    column per intent%(array_weights)s, constant within a group (as
    ``intent_weights`` of :func:`~sklearn_rankeval.alpha_ndcg_score`).
samples : str, default=None
    The exposure metrics' sampled-ranking id of each row (the rankings of a
    stochastic policy, several per query), as ``samples`` of
    :func:`~sklearn_rankeval.expected_exposure_score`.  The shuffle is by
    group, so that every ranking of a query is in one partition.
items : str, default=None
    The item id of each row (one item in several sampled rankings).
item_groups : str or list of str, default=None
    The item group of each row's item, or one column per dimension (their
    intersections, as a 2-D ``item_groups``)."""}


class _Kept(dict):
    """Paragraphs; a placeholder of another table is kept for it."""

    def __missing__(self, key):
        return f"%({key})s"


def frame_doc(func, engine):
    """Substitute :data:`FRAME_DOCS` in a Spark (``engine="spark"``) or Dask
    function's docstring."""
    spark = engine == "spark"
    docs = {name: text.replace("%(array_grades)s", (
        ", or one column of type ``array<numeric>`` holding every intent's "
        "grade on each row") if spark else "").replace(
        "%(array_weights)s", " (or one ``array<numeric>`` column)" if spark else "")
        for name, text in FRAME_DOCS.items()}
    return substitute_doc(func, _Kept(docs))
