"""Ranking metrics of a Spark DataFrame, computed where the rows are.

The rows move once: ``repartition`` by the group column puts each group in
one partition, ``sortWithinPartitions`` orders each partition by group id,
and ``mapInArrow`` feeds the partition's Arrow batches to the accumulator
of ``_distributed`` in ``group_rows="sorted"`` mode, which ranks whole
batches at once and carries a group cut by a batch boundary into the next
batch.  No Python function is called per group.

:func:`recommendation_report` is the in-memory report's pipeline over
partials: the lists and the held-out rows, shuffled together by user, are
read, ranked and measured by the in-memory readers and partials in each
partition (``mapInArrow``); one row per user and one per item come back,
and the driver finalizes them as in memory.

pyspark is imported when a function is called, never when this module or
``sklearn_rankeval`` is imported.  Install it with
``pip install "sklearn-rankeval[spark]"``.  Every other import goes
through ``sklearn_rankeval._distributed``.
"""

import functools
import os
import sys

import numpy as np

from ._distributed import (
    FrameInputs,
    TrainItems,
    accumulate,
    arrow_calls,
    check_spark_columns,
    click_doc,
    click_partials,
    click_plan,
    fill_doc,
    frame_doc,
    group_type_tap,
    input_order_column,
    list_plan,
    metric_plan,
    note_row,
    parquet_doc,
    partial_columns,
    partial_dtypes,
    partition_columns,
    record_batches,
    reduce_clicks,
    reduce_columns,
    reduce_partials,
    split_log_rows,
    summarize_partials,
)
from ._distributed import (
    quoted as _quoted,
)

__all__ = ["counterfactual_report", "evaluate_parquet", "per_group_scores",
           "ranking_report", "recommendation_report"]

_INSTALL = 'pip install "sklearn-rankeval[spark]"'
#: Rows given to the engine per call: Arrow batches (10,000 rows by default,
#: ``spark.sql.execution.arrow.maxRecordsPerBatch``) are concatenated up to
#: this many rows, so that Python's per-call overhead is paid rarely.
_ROWS_PER_CALL = 1 << 18


def _pyspark():
    try:
        from pyspark.sql import DataFrame
        from pyspark.sql import functions as F
        from pyspark.sql import types as T
    except ImportError as exc:
        raise ImportError(
            f"sklearn_rankeval.spark needs pyspark, pyarrow and pandas: {_INSTALL}"
        ) from exc
    return DataFrame, F, T


def _check_columns(df, inputs=None, **roles):
    """:func:`check_spark_columns` on the driver: the Spark type of each column."""
    DataFrame, F, T = _pyspark()
    return check_spark_columns(df, DataFrame, F, T, inputs, **roles)


def _prepare(df, inputs, y_score, groups, sample_weight, metrics, convention):
    """Check the arguments on the driver; the input columns and the plan.

    ``inputs``: the :class:`FrameInputs` of the call.  A convention that
    orders tied items as the input does gets a position column
    (``monotonically_increasing_id``: the frame's order, partition by
    partition), and each partition is sorted by group, then position.
    Returns ``(rows, names, pooled, group type, inputs as renamed)``.
    """
    _, F, T = _pyspark()
    types, selected, renamed = _check_columns(
        df, inputs, y_score=(y_score, "number"), groups=(groups, "id"),
        sample_weight=(sample_weight, "number"))
    names, pooled = metric_plan(metrics, groups, convention)
    cols = [F.col(_quoted(groups)).alias("g"),
            F.col(_quoted(y_score)).cast("double").alias("s"), *selected]
    if sample_weight is not None:
        cols.append(F.col(_quoted(sample_weight)).cast("double").alias("w"))
    order = ["g"]
    if input_order_column(names, convention, ("g", "t", "s", "w")) is not None:
        cols.append(F.monotonically_increasing_id().alias("p"))
        order.append("p")
    rows = (df.select(*cols).repartition(F.col("g")).sortWithinPartitions(*order))
    return rows, names, pooled, types[groups], renamed


def _partition_partials(batches, *, names, rows_per_call, weighted, convention,
                        inputs):
    """The accumulator of one partition's groups, or None if it has no rows.

    The partition is sorted by group; the accumulator carries the group cut
    at the end of an engine call (:func:`arrow_calls`) into the next.
    ``inputs``: the :class:`FrameInputs` of the renamed columns.
    """
    def chunks():
        for c in arrow_calls(batches, rows_per_call):
            y_true, columns = inputs.read(c.__getitem__)
            yield y_true, c["s"], c["g"], c["w"] if weighted else None, columns

    return accumulate(chunks(), names, convention=convention, group_rows="sorted")


def _report_udf(names, pooled, weighted, rows_per_call, convention, inputs):
    def udf(batches):
        import pyarrow as pa

        holder = {}
        try:
            acc = _partition_partials(group_type_tap(batches, holder), names=names,
                                      weighted=weighted, rows_per_call=rows_per_call,
                                      convention=convention, inputs=inputs)
            out = None if acc is None else acc.partials()
        except (ValueError, TypeError) as exc:
            # one row that carries the error to the driver, raised there
            group = pa.array([None], type=holder.get("type", pa.string()))
            yield note_row(group, names, pooled, "error",
                            f"{type(exc).__name__}:{exc}")
            return
        if out is not None:
            columns = partial_columns(out, names, pooled)
            yield from record_batches(columns, "group", holder["type"],
                                       extra=("error", pa.string()))

    return udf


def _frame_udf(names, weighted, rows_per_call, group_name, convention, inputs):
    def udf(batches):
        holder = {}
        acc = _partition_partials(group_type_tap(batches, holder), names=names,
                                  weighted=weighted, rows_per_call=rows_per_call,
                                  convention=convention, inputs=inputs)
        if acc is not None:
            yield from record_batches(acc.per_group(output="dict"), group_name,
                                       holder["type"])

    return udf


def _partials_schema(T, group_type, names, pooled, extra="error"):
    spark_type = {np.int64: T.LongType(), np.float64: T.DoubleType(),
                  np.bool_: T.BooleanType()}
    fields = [T.StructField("group", group_type)]
    fields += [T.StructField(c, spark_type[dt])
               for c, dt in partial_dtypes(names, pooled)]
    fields.append(T.StructField(extra, T.StringType()))
    return T.StructType(fields)


@fill_doc
@functools.partial(frame_doc, engine="spark")
def ranking_report(df, *, y_true, y_score, groups, sample_weight=None, metrics=None,
                   convention=None, intent_weights=None, samples=None, items=None,
                   item_groups=None):
    """Ranking metrics of a Spark DataFrame, as in-memory ``ranking_report``.

    The rows are shuffled once by group, each partition is ranked by the
    engine in a few vectorised calls (``mapInArrow``), and only one row of
    partial results per group comes back to the driver, where the groups are
    aggregated as in memory.  The values equal
    ``ranking_report(..., output="dict")`` on the collected rows to 1e-12.

    Read more in the :ref:`User Guide <distributed>`.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        One row per item (impression, document), in any order and any
        partitioning.
    %(y_true_frame)s
    y_score : str
        Name of the score column (numeric; higher ranks first, ``-inf``: not
        retrieved).
    groups : str
        Name of the group (query, user) id column: string, integer or float.
        A null id is an error.
    sample_weight : str, default=None
        Name of a weight column, as ``sample_weight`` of the metric functions
        (item weights for GAUC, MAP and interpolated AP; query weights,
        constant within a group, for the others).
    metrics : list of str, default=None
        Metric names, as the scorer names (``"gauc"``, ``"ndcg@10"``, ...);
        None: the metrics of :func:`~sklearn_rankeval.ranking_report`'s
        default.
    %(convention_engine)s
    %(frame_columns)s

    Returns
    -------
    report : dict
        ``{metric name: value}``, as ``ranking_report(..., output="dict")``.

    Raises
    ------
    ValueError
        A column that does not exist, or bad data (a NaN score, a negative
        relevance, a null group id, weights that vary within a group for a
        query-weighted metric): the message of the in-memory function, raised
        on the driver.
    TypeError
        A column name that is not a string, or a column of the wrong type.

    See Also
    --------
    per_group_scores : The value of every metric in every group, as a
        Spark DataFrame.
    sklearn_rankeval.ranking_report : The same report in memory.
    sklearn_rankeval.dask.ranking_report : The same report of a Dask DataFrame.

    Notes
    -----
    Cost: one shuffle of the four used columns, one sort within partitions,
    and one engine pass per partition; the driver receives
    ``8 * (6 + 2 to 4 per metric)`` bytes per group (about 250 bytes per
    group for the default metrics), which it sorts by group id and sums in
    the order of the in-memory report.  For tens of millions of groups, that
    is gigabytes on the driver: use :func:`per_group_scores` and aggregate
    it in Spark instead (the same values up to the order of the sums).

    Examples
    --------
    >>> from pyspark.sql import SparkSession  # doctest: +SKIP
    >>> from sklearn_rankeval.spark import ranking_report
    >>> spark = SparkSession.builder.master("local[2]").getOrCreate()  # doctest: +SKIP
    >>> log = spark.createDataFrame(  # doctest: +SKIP
    ...     [("ann", 1, 0.9), ("ann", 0, 0.4), ("ann", 0, 0.6),
    ...      ("bob", 0, 0.8), ("bob", 1, 0.8)],
    ...     ["user", "clicked", "score"])
    >>> # bob's click ties with his other item at the top: MRR (1 + 1/2) / 2
    >>> ranking_report(log, y_true="clicked", y_score="score",  # doctest: +SKIP
    ...                groups="user", metrics=["mrr", "gauc"])
    {'mrr': 0.875, 'gauc': 0.8}
    """
    inputs = FrameInputs.of(y_true, intent_weights=intent_weights, samples=samples,
                            items=items, item_groups=item_groups)
    return reduce_partials(*_partials(df, inputs, y_score, groups, sample_weight,
                                      metrics, convention), convention=convention)


def _partials(df, inputs, y_score, groups, sample_weight, metrics, convention=None):
    """The per-group partials, collected: ``(columns, names, pooled)``;
    ``inputs``: the :class:`FrameInputs` of the call."""
    _, _, T = _pyspark()
    rows, names, pooled, group_type, renamed = _prepare(
        df, inputs, y_score, groups, sample_weight, metrics, convention)
    partials = rows.mapInArrow(
        _report_udf(names, pooled, sample_weight is not None, _ROWS_PER_CALL,
                    convention, renamed),
        _partials_schema(T, group_type, names, pooled))
    columns = _collect_columns(partials)
    errors = [e for e in columns.pop("error") if isinstance(e, str)]
    if errors:
        kind, _, message = errors[0].partition(":")
        raise (TypeError if kind == "TypeError" else ValueError)(message)
    return columns, names, pooled


@parquet_doc
def evaluate_parquet(path, *, y_true, y_score, groups, metrics=None, per_group=False):
    """The metrics of a Parquet file, folder or glob, on Spark.

    What ``rankeval evaluate PATH --engine spark`` computes: the rows are
    read by Spark from ``path`` (a file, a folder of part files or a glob),
    shuffled by group once, ranked per partition, and only the per-group
    partial sums come back (the values of :func:`ranking_report` on the
    same rows).  The session is the active one, or a new one (``local[*]`` unless
    ``spark-submit`` or ``SPARK_*`` settings say otherwise).

    Read more in the :ref:`User Guide <distributed>`.

    %(parquet_parameters)s

    Examples
    --------
    >>> from sklearn_rankeval.spark import evaluate_parquet
    >>> result = evaluate_parquet(  # doctest: +SKIP
    ...     "clicks/*.parquet", y_true="clicked", y_score="score",
    ...     groups="user", metrics=["mrr", "gauc"])
    >>> result.report  # doctest: +SKIP
    {'mrr': 0.875, 'gauc': 0.8}
    """
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    _pyspark()
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("rankeval evaluate").getOrCreate()
    df = spark.read.parquet(str(path))
    return summarize_partials(
        *_partials(df, FrameInputs.of(y_true), y_score, groups, None, metrics),
        per_group=per_group)


def _collect_columns(sdf):
    """A (small) Spark DataFrame's columns as NumPy arrays, on the driver."""
    if hasattr(sdf, "toArrow"):  # pyspark >= 4.0
        table = sdf.toArrow()
        return {name: table.column(name).to_numpy() for name in table.column_names}
    frame = sdf.toPandas()  # pyspark 3.4, 3.5
    return {name: frame[name].to_numpy() for name in frame.columns}


@fill_doc
@functools.partial(frame_doc, engine="spark")
def per_group_scores(df, *, y_true, y_score, groups, sample_weight=None, metrics=None,
                     convention=None, intent_weights=None, samples=None, items=None,
                     item_groups=None):
    """Every metric of every group of a Spark DataFrame, as a Spark DataFrame.

    The same values as :func:`~sklearn_rankeval.per_group_scores` on the
    collected rows, computed like :func:`ranking_report` (one shuffle by
    group, the engine once per batch of each partition); the result stays
    distributed (nothing is computed until an action).

    Read more in the :ref:`User Guide <distributed>`.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        One row per item (impression, document).
    %(y_true_frame)s
    y_score : str
        Name of the score column (numeric).
    groups : str
        Name of the group id column (string, integer or float).
    sample_weight : str, default=None
        Name of a weight column, as in :func:`ranking_report`.
    metrics : list of str, default=None
        Metric names, as the scorer names; None: the default metrics of
        :func:`~sklearn_rankeval.ranking_report`.
    %(convention_engine)s
    %(frame_columns)s

    Returns
    -------
    frame : pyspark.sql.DataFrame
        One row per group: the group column (named and typed as in ``df``),
        ``n_items``, ``n_relevant``, ``weight`` and one double column per
        metric, named as the metric (``ndcg@10``: write
        ``F.col("`ndcg@10`")`` in Spark SQL expressions), NaN where the metric
        is undefined for the group.  The rows come in no particular order
        (sorted by group within each partition).

    Raises
    ------
    ValueError
        A column that does not exist (raised by this call).  Bad data (a NaN
        score, a null group id, ...) is found when the frame is computed: the
        action fails with the in-memory function's message in Spark's
        ``PythonException``.
    TypeError
        A column name that is not a string, or a column of the wrong type.

    See Also
    --------
    ranking_report : The averages of the same metrics.
    sklearn_rankeval.per_group_scores : The same frame in memory.

    Examples
    --------
    >>> from pyspark.sql import SparkSession  # doctest: +SKIP
    >>> from sklearn_rankeval.spark import per_group_scores
    >>> spark = SparkSession.builder.master("local[2]").getOrCreate()  # doctest: +SKIP
    >>> log = spark.createDataFrame(  # doctest: +SKIP
    ...     [("ann", 1, 0.9), ("ann", 0, 0.4), ("ann", 0, 0.6),
    ...      ("bob", 0, 0.8), ("bob", 1, 0.8)],
    ...     ["user", "clicked", "score"])
    >>> scores = per_group_scores(  # doctest: +SKIP
    ...     log, y_true="clicked", y_score="score", groups="user",
    ...     metrics=["mrr", "ndcg@3"])
    >>> scores.orderBy("user").show()  # doctest: +SKIP
    +----+-------+----------+------+----+------------------+
    |user|n_items|n_relevant|weight| mrr|            ndcg@3|
    +----+-------+----------+------+----+------------------+
    | ann|      3|         1|   3.0| 1.0|               1.0|
    | bob|      2|         1|   2.0|0.75|0.8154648767857288|
    +----+-------+----------+------+----+------------------+
    <BLANKLINE>
    """
    _, _, T = _pyspark()
    inputs = FrameInputs.of(y_true, intent_weights=intent_weights, samples=samples,
                            items=items, item_groups=item_groups)
    rows, names, _, group_type, renamed = _prepare(
        df, inputs, y_score, groups, sample_weight, metrics, convention)
    schema = T.StructType(
        [T.StructField(groups, group_type),
         T.StructField("n_items", T.LongType()),
         T.StructField("n_relevant", T.LongType()),
         T.StructField("weight", T.DoubleType())]
        + [T.StructField(name, T.DoubleType()) for name in names])
    return rows.mapInArrow(
        _frame_udf(names, sample_weight is not None, _ROWS_PER_CALL, groups,
                   convention, renamed), schema)


def _click_udf(plan, weighted, rows_per_call):
    """mapInArrow function: a partition's partials and its checks (one row)."""
    def udf(batches):
        import pyarrow as pa

        holder = {}
        pieces = ((c["c"], c["s"], c["p"], c["g"], c["w"] if weighted else None)
                  for c in arrow_calls(group_type_tap(batches, holder), rows_per_call))
        state, checks = click_partials(pieces, plan, group_rows="sorted")
        if state is not None:
            yield from record_batches(partial_columns(state, plan.names, plan.pooled),
                                       "group", holder["type"],
                                       extra=("log", pa.string()))
        if holder:
            yield note_row(holder["first"], plan.names, plan.pooled, "log",
                            checks.to_json())

    return udf


@click_doc
def counterfactual_report(df, *, clicks, y_score, positions, groups, propensities,
                          metrics=None, estimator="ips",
                          clip=None, sample_weight=None, output="dict"):
    """Ranking metrics of a new ranker, estimated from a click log in Spark.

    The values of :func:`sklearn_rankeval.counterfactual_report` on the
    collected rows (to 1e-12), from the same pipeline over partials: the
    rows are shuffled once by impression, each partition turns its clicks
    into gains and ranks and measures its impressions (``mapInArrow``), and
    one row of partials per impression comes back to the driver.

    Read more in the :ref:`User Guide <counterfactual-distributed>`.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The log: one row per displayed item, in any order and partitioning.
    %(click_columns)s
    %(click_options)s

    Returns
    -------
    %(click_returns)s

    Raises
    ------
    %(click_raises)s

    See Also
    --------
    sklearn_rankeval.counterfactual_report : The same report in memory.
    sklearn_rankeval.dask.counterfactual_report : The same report of a Dask
        DataFrame.

    Notes
    -----
    %(click_notes)s

    Examples
    --------
    >>> from pyspark.sql import SparkSession  # doctest: +SKIP
    >>> from sklearn_rankeval.spark import counterfactual_report
    >>> spark = SparkSession.builder.master("local[2]").getOrCreate()  # doctest: +SKIP
    >>> log = spark.createDataFrame(  # doctest: +SKIP
    ...     [("a", 1, 1, 0.2), ("a", 0, 2, 0.5), ("a", 1, 3, 0.9),
    ...      ("b", 0, 1, 0.1), ("b", 1, 2, 0.8), ("b", 0, 3, 0.8)],
    ...     ["impression", "clicked", "position", "score"])
    >>> counterfactual_report(  # doctest: +SKIP
    ...     log, clicks="clicked", y_score="score", positions="position",
    ...     groups="impression", propensities=[1.0, 0.5, 0.25],
    ...     metrics=["precision@1", "avg_rel_rank"])
    {'precision@1': 2.5, 'avg_rel_rank': 5.0}
    """
    _, F, T = _pyspark()
    types, _, _ = _check_columns(
        df, clicks=(clicks, "label"), y_score=(y_score, "number"),
        positions=(positions, "number"), groups=(groups, "id"),
        sample_weight=(sample_weight, "number"))
    plan = click_plan(metrics, estimator=estimator, clip=clip,
                      propensities=propensities, output=output)

    def column(name, alias):  # decimals as doubles (Arrow gives them as objects)
        col = F.col(_quoted(name))
        return (col.cast("double") if isinstance(types[name], T.DecimalType)
                else col).alias(alias)

    cols = [column(groups, "g"), column(clicks, "c"), column(positions, "p"),
            F.col(_quoted(y_score)).cast("double").alias("s")]
    if sample_weight is not None:
        cols.append(F.col(_quoted(sample_weight)).cast("double").alias("w"))
    rows = df.select(*cols).repartition(F.col("g")).sortWithinPartitions("g")
    out = rows.mapInArrow(_click_udf(plan, sample_weight is not None, _ROWS_PER_CALL),
                          _partials_schema(T, types[groups], plan.names, plan.pooled,
                                           extra="log"))
    return reduce_clicks(*split_log_rows(_collect_columns(out), plan), plan)


# ---------------------------------------------------------------------------
# top-N recommendation lists
# ---------------------------------------------------------------------------
#: The column names of the frames built below (inputs renamed to them).
_U, _I, _S, _T, _SRC = "u", "i", "s", "t", "src"


def _rec_columns(df, name, user, item, value, value_default, value_what):
    """Check a lists / interactions frame; ``(value column or None)``."""
    DataFrame, _, T = _pyspark()
    if not isinstance(df, DataFrame):
        raise TypeError(f"{name} must be a pyspark.sql.DataFrame, got "
                        f"{type(df).__name__}.")
    columns = list(df.columns)
    for col in (user, item, value):
        if col is not None and col not in columns:
            raise ValueError(
                f"{name} has no column {col!r}; its columns are "
                f"{', '.join(repr(c) for c in columns)}.")
    if value is None and value_default in columns:
        value = value_default
    if value is not None:
        kind = dict((f.name, f.dataType) for f in df.schema.fields)[value]
        if not isinstance(kind, T.NumericType):
            raise TypeError(f"{name}: the {value_what} column {value!r} must hold "
                            f"numbers, got {kind.simpleString()}.")
    return value


def _id_types(frames, column, what):
    """The Spark type of the ``column`` ids, one across ``frames`` (a
    ``{name: frame}``), else a ValueError naming each frame's type."""
    types = {name: dict((f.name, f.dataType) for f in df.schema.fields)[column]
             for name, df in frames.items()}
    if len(set(types.values())) > 1:
        raise ValueError(
            f"the {what} ids of " + ", ".join(
                f"{name} are {kind.simpleString()}" for name, kind in types.items())
            + f": no {what} would match; cast them to one type.")
    return next(iter(types.values()))


def _train_items(train, user, item, plan):
    """The :class:`TrainItems` of ``train``: one Spark job (a rollup by item:
    its interactions and distinct users, and the distinct users of all)."""
    _, F, _ = _pyspark()
    rows = (train.select(F.col(_quoted(user)).alias(_U),
                         F.col(_quoted(item)).alias(_I))
            .rollup(_I).agg(F.count("*").alias("n"),
                            F.countDistinct(_U).alias("users"),
                            F.sum(F.col(_U).isNull().cast("long")).alias("null"),
                            F.grouping_id().alias("total")))
    cols = _collect_columns(rows)
    total = np.asarray(cols["total"]) == 1
    per_item = ~total
    if (np.asarray(cols["null"])[total].sum() if total.any() else 0) or \
            _is_null(cols[_I][per_item]).any():
        raise ValueError("train: the user and item ids must not be null.")
    n_users = int(np.asarray(cols["users"])[total][0]) if total.any() else 0
    return TrainItems.of(cols[_I][per_item], np.asarray(cols["n"])[per_item],
                         np.asarray(cols["users"])[per_item], n_users, plan)


def _lists_udf(plan, layout, names, train_items, user_type, item_type):
    """mapInArrow function: the partials of one partition's whole users.

    Output rows: one per evaluated user (``user`` and its per-user partials
    in ``c0..``), one per item of the partition (``item`` and its per-item
    sums), or one with ``error``.
    """
    user, item, score, relevance = names
    width = layout.width

    def udf(batches):
        import pyarrow as pa

        def out(users, items, values, error=None):
            n_u, n = len(users), len(users) + len(items)
            arrays = [pa.array(list(users) + [None] * len(items), type=user_type),
                      pa.array([None] * n_u + list(items), type=item_type)]
            arrays += [pa.array(values[:, j], type=pa.float64())
                       for j in range(width)]
            arrays.append(pa.array([error] * n, type=pa.string()))
            return pa.RecordBatch.from_arrays(
                arrays, names=["user", "item"] + [f"c{j}" for j in range(width)]
                + ["error"])

        batches = [b for b in batches if b.num_rows]
        if not batches:
            return
        table = pa.Table.from_batches(batches)
        try:
            if table.column(_U).null_count or table.column(_I).null_count:
                raise ValueError("df_rec and df_held: the user and item ids must "
                                 "not be null.")
            col = {n: table.column(n).to_numpy(zero_copy_only=False)
                   for n in table.column_names}
            rec = col[_SRC] == 0
            held = ~rec
            users, items, values = partition_columns(
                plan, layout,
                {user: col[_U][rec], item: col[_I][rec], score: col[_S][rec]},
                {user: col[_U][held], item: col[_I][held],
                 relevance: col[_T][held]},
                user=user, item=item, score=score, relevance=relevance,
                train_items=train_items)
        except (ValueError, TypeError) as exc:
            yield out([None], [], np.full((1, width), np.nan),
                      f"{type(exc).__name__}:{exc}")
            return
        yield out(users, items, values)

    return udf


def _is_null(values):
    values = np.asarray(values)
    if values.dtype.kind == "f":
        return np.isnan(values)
    return np.array([v is None for v in values], dtype=bool)


def recommendation_report(df_rec, df_held, *, k=10, metrics=None, train=None,
                          n_items=None, users="held_out", user="user", item="item",
                          score=None, relevance=None, output="text"):
    """Metrics of top-N recommendation lists in Spark DataFrames.

    The values of :func:`sklearn_rankeval.recommendation_report` on the
    collected rows (to 1e-12), from the same pipeline over partials: the
    lists and the held-out rows are shuffled together by user (one
    shuffle), each partition's users are read, ranked and measured by the
    in-memory readers and partials (``mapInArrow``), and only one row per
    evaluated user and one per item come back to the driver, which adds the
    items' rows and finalizes as in memory.

    Read more in the :ref:`User Guide <distributed>`.

    Parameters
    ----------
    df_rec : pyspark.sql.DataFrame
        The lists: one row per (user, item) pair, with a score column (higher
        is better) or, without one, the rank given by the frame's row order
        within a user (partition by partition).  A repeated pair is an error.
    df_held : pyspark.sql.DataFrame
        The held-out interactions, one row per (user, item) pair, with an
        optional relevance column (graded gains ``>= 0``; default 1).
    k : int, default=10
        The cutoff of the default metrics.
    metrics : list of str, default=None
        Accuracy metrics by scorer name (``"ndcg@10"``, ``"recall@10"``,
        ``"mrr"``, ...) and beyond-accuracy metrics ``"coverage@K"``,
        ``"gini@K"``, ``"entropy@K"``, ``"novelty@K"``, ``"arp@K"``,
        ``"long_tail@K"``.  None: precision, recall, NDCG and MAP at ``k`` and
        ``coverage@k``.
    train : pyspark.sql.DataFrame, default=None
        Training interactions (columns ``user`` and ``item``): the item
        popularity of ``novelty@K``, ``arp@K`` and ``long_tail@K`` (needed by
        them), and catalog items.
    n_items : int, default=None
        Catalog size; None: the number of distinct items in ``train``,
        ``df_held`` and ``df_rec`` together.
    users : {'held_out', 'recommended', 'union'}, default='held_out'
        The users averaged, as in the in-memory function.
    user : str, default='user'
        Column name of the user ids (of one type in every frame).
    item : str, default='item'
        Column name of the item ids (of one type in every frame).
    score : str, default=None
        Score column of ``df_rec``; None: ``"score"`` if present, else the
        row order is the rank.
    relevance : str, default=None
        Gain column of ``df_held``; None: ``"relevance"`` if present, else 1.
    output : {'text', 'dict', 'frame'}, default='text'
        As the in-memory function: the text table, ``{metric: value}`` (with
        ``n_items`` and ``n_users`` attributes) or a tidy pandas DataFrame.

    Returns
    -------
    report : str, dict or pandas.DataFrame
        By ``output``.

    Raises
    ------
    ValueError
        A column that does not exist, ids of two types in two frames, a
        repeated (user, item) pair, a null id, a NaN or ``+inf`` score, a
        negative or NaN relevance, ``ild@K`` or a metric ``novelty@K`` /
        ``arp@K`` / ``long_tail@K`` without ``train``: the in-memory
        function's message, raised on the driver.
    TypeError
        A frame that is not a Spark DataFrame, a score or relevance column
        that does not hold numbers.

    See Also
    --------
    sklearn_rankeval.recommendation_report : The same report in memory.
    ranking_report : The accuracy metrics of a long layout in Spark.

    Notes
    -----
    Not in this version: ``ild@K`` (it needs the item features on every
    worker), ``convention=``, ``confidence=`` and ``output="per_user"`` of
    the in-memory function.

    Cost: one Spark job (with ``train``, one more: the training popularity
    per item, one row per training item to the driver, shipped to the
    workers with the function): one shuffle of the lists and the held-out
    rows by user, the in-memory pipeline once per partition, and one
    shuffle of the per-item rows.  The driver receives one row per
    evaluated user and one per catalog item.

    Examples
    --------
    >>> from pyspark.sql import SparkSession  # doctest: +SKIP
    >>> from sklearn_rankeval.spark import recommendation_report
    >>> spark = SparkSession.builder.master("local[2]").getOrCreate()  # doctest: +SKIP
    >>> rec = spark.createDataFrame(  # doctest: +SKIP
    ...     [("ann", "a", 3.0), ("ann", "b", 2.0), ("ann", "c", 1.0),
    ...      ("bob", "c", 3.0), ("bob", "a", 2.0), ("bob", "d", 1.0)],
    ...     ["user", "item", "score"])
    >>> held = spark.createDataFrame(  # doctest: +SKIP
    ...     [("ann", "b"), ("bob", "d"), ("bob", "e")], ["user", "item"])
    >>> recommendation_report(rec, held, k=2, output="dict",  # doctest: +SKIP
    ...     metrics=["precision@2", "recall@2", "coverage@2"])
    {'precision@2': 0.25, 'recall@2': 0.5, 'coverage@2': 0.6}
    """
    _, F, T = _pyspark()
    score = _rec_columns(df_rec, "df_rec", user, item, score, "score", "score")
    relevance = _rec_columns(df_held, "df_held", user, item, relevance,
                             "relevance", "relevance")
    if train is not None:
        _rec_columns(train, "train", user, item, None, None, "")
    plan, layout = list_plan(metrics, k=k, users=users, output=output,
                             train=train is not None)
    frames = {"df_rec": df_rec, "df_held": df_held,
              **({"train": train} if train is not None else {})}
    user_type = _id_types(frames, user, "user")
    item_type = _id_types(frames, item, "item")
    train_items = None if train is None else _train_items(train, user, item, plan)

    from pyspark.sql.pandas.types import to_arrow_type

    ids = [F.col(_quoted(user)).alias(_U), F.col(_quoted(item)).alias(_I)]
    none = F.lit(None).cast("double")
    # without a score, the frame's order: minus a position increasing in it
    s = (F.col(_quoted(score)) if score is not None
         else -F.monotonically_increasing_id()).cast("double")
    t = (F.col(_quoted(relevance)).cast("double") if relevance is not None
         else F.lit(1.0))
    rows = df_rec.select(*ids, s.alias(_S), none.alias(_T),
                         F.lit(0).cast("byte").alias(_SRC)).unionByName(
        df_held.select(*ids, none.alias(_S), t.alias(_T),
                       F.lit(1).cast("byte").alias(_SRC)))
    width = layout.width
    schema = T.StructType(
        [T.StructField("user", user_type), T.StructField("item", item_type)]
        + [T.StructField(f"c{j}", T.DoubleType()) for j in range(width)]
        + [T.StructField("error", T.StringType())])
    names = (user, item, score or "score", relevance or "relevance")
    out = rows.repartition(F.col(_U)).mapInArrow(
        _lists_udf(plan, layout, names, train_items, to_arrow_type(user_type),
                   to_arrow_type(item_type)), schema)
    # the item rows of the partitions added; a user's row is one row already
    summed = out.groupBy("user", "item").agg(
        *(F.sum(f"c{j}").alias(f"c{j}") for j in range(width)),
        F.max("error").alias("error"))
    cols = _collect_columns(summed)
    errors = [e for e in cols["error"] if isinstance(e, str)]
    if errors:
        kind, _, message = errors[0].partition(":")
        raise (TypeError if kind == "TypeError" else ValueError)(message)
    values = np.column_stack([np.asarray(cols[f"c{j}"], dtype=np.float64)
                              for j in range(width)]) if cols["user"].shape[0] \
        else np.zeros((0, width))
    is_item = ~_is_null(cols["item"])
    return reduce_columns(
        plan, layout, cols["user"][~is_item], values[~is_item],
        cols["item"][is_item], values[is_item], n_items=n_items,
        train_items=train_items)
