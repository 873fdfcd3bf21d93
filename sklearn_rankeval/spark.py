"""Ranking metrics of a Spark DataFrame, computed where the rows are.

The rows move once: ``repartition`` by the group column puts each group in
one partition, ``sortWithinPartitions`` orders each partition by group id,
and ``mapInArrow`` feeds the partition's Arrow batches to a
:class:`~sklearn_rankeval.RankingAccumulator` in ``group_rows="sorted"``
mode, which ranks whole batches at once and carries a group cut by a batch
boundary into the next batch.  No Python function is called per group.

:func:`recommendation_report` builds the long layout of top-N lists with
Spark joins and reuses that machinery for the accuracy metrics; its
beyond-accuracy metrics are ``_beyond``'s partial statistics, computed per
partition of users (``mapInArrow`` again), the per-item sums added in Spark
and the per-user columns finalized on the driver.

pyspark is imported when a function is called, never when this module or
``sklearn_rankeval`` is imported.  Install it with
``pip install "sklearn-rankeval[spark]"``.
"""

import os
import sys

import numpy as np

from ._core import check_k, check_option, check_positive_int
from ._distributed import (
    check_column_types,
    check_frame,
    input_order_column,
    metric_plan,
    partial_columns,
    partial_dtypes,
    reduce_partials,
    summarize_partials,
)
from ._metrics import fill_doc
from ._recommend import USERS, _format, _split_metrics
from ._reports import RankingAccumulator

__all__ = ["per_group_scores", "ranking_report", "recommendation_report"]

_INSTALL = 'pip install "sklearn-rankeval[spark]"'
#: Rows given to the engine per call: Arrow batches (10,000 rows by default,
#: ``spark.sql.execution.arrow.maxRecordsPerBatch``) are concatenated up to
#: this many rows, so that Python's per-call overhead is paid rarely.
_ROWS_PER_CALL = 1 << 18
#: Rows per output Arrow batch.
_OUT_ROWS = 1 << 16


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


def _quoted(name):
    return "`" + name.replace("`", "``") + "`"


def _prepare(df, y_true, y_score, groups, sample_weight, metrics, convention):
    """Check the arguments on the driver; the input columns and the plan.

    A convention that orders tied items as the input does gets a position
    column (``monotonically_increasing_id``: the frame's order, partition by
    partition), and each partition is sorted by group, then position.
    """
    DataFrame, F, T = _pyspark()
    check_frame(df, DataFrame, "df", "pyspark.sql.DataFrame", y_true=y_true,
                y_score=y_score, groups=groups, sample_weight=sample_weight)
    types = {f.name: f.dataType for f in df.schema.fields}
    numeric = (T.NumericType,)
    wanted = [("y_true", y_true, numeric + (T.BooleanType,), "numeric or boolean"),
              ("y_score", y_score, numeric, "numeric"),
              ("sample_weight", sample_weight, numeric, "numeric"),
              ("groups", groups, (T.StringType, T.IntegralType, T.FloatType,
                                  T.DoubleType), "string, integer or float")]
    check_column_types(
        [(arg, name, lambda t, ok=ok: isinstance(t, ok), what)
         for arg, name, ok, what in wanted],
        types, "type", shown=lambda t: t.simpleString())
    names, pooled = metric_plan(metrics, groups, convention)
    label = types[y_true]
    true_col = F.col(_quoted(y_true))
    if isinstance(label, (T.DecimalType, T.FloatType)):
        true_col = true_col.cast("double")
    cols = [F.col(_quoted(groups)).alias("g"), true_col.alias("t"),
            F.col(_quoted(y_score)).cast("double").alias("s")]
    if sample_weight is not None:
        cols.append(F.col(_quoted(sample_weight)).cast("double").alias("w"))
    order = ["g"]
    if input_order_column(names, convention, ("g", "t", "s", "w")) is not None:
        cols.append(F.monotonically_increasing_id().alias("p"))
        order.append("p")
    rows = (df.select(*cols).repartition(F.col("g")).sortWithinPartitions(*order))
    return rows, names, pooled, types[groups]


def _partition_partials(batches, *, names, rows_per_call, weighted, convention):
    """The accumulator of one partition's groups, or None if it has no rows.

    The partition is sorted by group; each engine call takes the buffered
    batches (at least ``rows_per_call`` rows, or the rest), and the
    accumulator carries the group cut at the end of a call into the next.
    """
    import pyarrow as pa

    acc = RankingAccumulator(names, group_rows="sorted", convention=convention)
    buffer, buffered = [], 0

    def feed():
        table = pa.Table.from_batches(buffer)
        column = {name: table.column(name).to_numpy()
                  for name in table.column_names}
        acc.update(column["t"], column["s"], groups=column["g"],
                   sample_weight=column["w"] if weighted else None)

    for batch in batches:
        if batch.num_rows == 0:
            continue
        buffer.append(batch)
        buffered += batch.num_rows
        if buffered >= rows_per_call:
            feed()
            buffer, buffered = [], 0
    if buffer:
        feed()
    return acc if acc.n_rows_ else None


def _record_batches(columns, group_name, group_type, extra=None):
    """Columns (``"group"`` first) -> Arrow record batches of ``_OUT_ROWS``."""
    import pyarrow as pa

    names = list(columns)
    n = len(columns["group"])
    arrays = [pa.array(columns["group"], type=group_type)]
    arrays += [pa.array(np.asarray(columns[c])) for c in names[1:]]
    names[0] = group_name
    if extra is not None:
        arrays.append(pa.nulls(n, type=extra[1]))
        names.append(extra[0])
    table = pa.Table.from_arrays(arrays, names=names)
    yield from table.to_batches(max_chunksize=max(min(n, _OUT_ROWS), 1))


def _group_type_tap(batches, holder):
    """Pass the batches through, noting the Arrow type of the group column."""
    for batch in batches:
        holder.setdefault("type", batch.schema.field("g").type)
        yield batch


def _report_udf(names, pooled, weighted, rows_per_call, convention):
    def udf(batches):
        import pyarrow as pa

        holder = {}
        try:
            acc = _partition_partials(_group_type_tap(batches, holder), names=names,
                                      weighted=weighted, rows_per_call=rows_per_call,
                                      convention=convention)
            out = None if acc is None else acc.partials()
        except (ValueError, TypeError) as exc:
            # one row that carries the error to the driver, raised there
            columns = {"group": [None]}
            for column, dtype in partial_dtypes(names, pooled):
                columns[column] = pa.nulls(1, type=pa.from_numpy_dtype(dtype))
            columns["error"] = [f"{type(exc).__name__}:{exc}"]
            yield pa.RecordBatch.from_arrays(
                [pa.array([None], type=holder.get("type", pa.string())),
                 *(columns[c] for c in list(columns)[1:-1]),
                 pa.array(columns["error"], type=pa.string())],
                names=list(columns))
            return
        if out is not None:
            columns = partial_columns(out, names, pooled)
            yield from _record_batches(columns, "group", holder["type"],
                                       extra=("error", pa.string()))

    return udf


def _frame_udf(names, weighted, rows_per_call, group_name, convention):
    def udf(batches):
        holder = {}
        acc = _partition_partials(_group_type_tap(batches, holder), names=names,
                                  weighted=weighted, rows_per_call=rows_per_call,
                                  convention=convention)
        if acc is not None:
            yield from _record_batches(acc.per_group(output="dict"), group_name,
                                       holder["type"])

    return udf


def _partials_schema(T, group_type, names, pooled):
    spark_type = {np.int64: T.LongType(), np.float64: T.DoubleType(),
                  np.bool_: T.BooleanType()}
    fields = [T.StructField("group", group_type)]
    fields += [T.StructField(c, spark_type[dt])
               for c, dt in partial_dtypes(names, pooled)]
    fields.append(T.StructField("error", T.StringType()))
    return T.StructType(fields)


@fill_doc
def ranking_report(df, *, y_true, y_score, groups, sample_weight=None, metrics=None,
                   convention=None):
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
    y_true : str
        Name of the relevance column (numeric ``>= 0``, or boolean).
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
    return reduce_partials(*_partials(df, y_true, y_score, groups, sample_weight,
                                      metrics, convention), convention=convention)


def _partials(df, y_true, y_score, groups, sample_weight, metrics, convention=None):
    """The per-group partials, collected: ``(columns, names, pooled)``."""
    _, _, T = _pyspark()
    rows, names, pooled, group_type = _prepare(df, y_true, y_score, groups,
                                               sample_weight, metrics, convention)
    partials = rows.mapInArrow(
        _report_udf(names, pooled, sample_weight is not None, _ROWS_PER_CALL,
                    convention),
        _partials_schema(T, group_type, names, pooled))
    columns = _collect_columns(partials)
    errors = [e for e in columns.pop("error") if isinstance(e, str)]
    if errors:
        kind, _, message = errors[0].partition(":")
        raise (TypeError if kind == "TypeError" else ValueError)(message)
    return columns, names, pooled


def _evaluate_parquet(path, *, y_true, y_score, groups, metrics, per_group=False):
    """``rankeval evaluate PATH --engine spark``: a Parquet file, folder or glob.

    Returns ``(report, per-group dict or None, n_rows, n_groups)`` from one
    Spark job.  The session is the active one, or a new one (``local[*]``
    unless ``spark-submit`` or ``SPARK_*`` settings say otherwise).
    """
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    _pyspark()
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("rankeval evaluate").getOrCreate()
    df = spark.read.parquet(str(path))
    return summarize_partials(
        *_partials(df, y_true, y_score, groups, None, metrics), per_group=per_group)


def _collect_columns(sdf):
    """A (small) Spark DataFrame's columns as NumPy arrays, on the driver."""
    if hasattr(sdf, "toArrow"):  # pyspark >= 4.0
        table = sdf.toArrow()
        return {name: table.column(name).to_numpy() for name in table.column_names}
    frame = sdf.toPandas()  # pyspark 3.4, 3.5
    return {name: frame[name].to_numpy() for name in frame.columns}


@fill_doc
def per_group_scores(df, *, y_true, y_score, groups, sample_weight=None, metrics=None,
                     convention=None):
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
    y_true : str
        Name of the relevance column (numeric ``>= 0``, or boolean).
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
    rows, names, _, group_type = _prepare(df, y_true, y_score, groups,
                                          sample_weight, metrics, convention)
    schema = T.StructType(
        [T.StructField(groups, group_type),
         T.StructField("n_items", T.LongType()),
         T.StructField("n_relevant", T.LongType()),
         T.StructField("weight", T.DoubleType())]
        + [T.StructField(name, T.DoubleType()) for name in names])
    return rows.mapInArrow(
        _frame_udf(names, sample_weight is not None, _ROWS_PER_CALL, groups,
                   convention), schema)


# ---------------------------------------------------------------------------
# top-N recommendation lists
# ---------------------------------------------------------------------------
#: The column names of the frames built below (inputs renamed to them).
_U, _I, _S, _T = "u", "i", "s", "t"


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


def _check_rows(df, name, *, pairs, value_rule=None):
    """One Spark job: null ids, a repeated (user, item) pair, bad values.

    ``value_rule``: (Column that is true on a bad value, message).
    """
    _, F, _ = _pyspark()
    null = (F.col(_U).isNull() | F.col(_I).isNull()).cast("long")
    bad = (value_rule[0] if value_rule else F.lit(False)).cast("long")
    rows = df.select(null.alias("null"), bad.alias("bad"), _U, _I)
    if pairs:
        rows = rows.groupBy(_U, _I).agg(F.count("*").alias("n"),
                                        F.sum("null").alias("null"),
                                        F.sum("bad").alias("bad"))
    else:
        rows = rows.withColumn("n", F.lit(1))
    row = rows.agg(F.max("n"), F.sum("null"), F.sum("bad")).first()
    n, nulls, bads = (0 if v is None else v for v in row)
    if nulls:
        raise ValueError(f"{name}: the user and item ids must not be null.")
    if pairs and n > 1:
        raise ValueError(f"{name} repeats a (user, item) pair.")
    if bads:
        raise ValueError(value_rule[1])


def _item_codes(frames):
    """The distinct items of ``frames``, coded ``0 .. n - 1`` in Spark (by id).

    A window over the distinct items only (one row per catalog item).
    """
    from pyspark.sql import Window

    _, F, _ = _pyspark()
    items = frames[0].select(_I)
    for frame in frames[1:]:
        items = items.unionByName(frame.select(_I))
    return items.distinct().select(
        _I, (F.row_number().over(Window.orderBy(_I)) - 1).alias("code"))


def _train_popularity(train, codes, n_items):
    """The :class:`~._recommend._beyond.Popularity` of the training rows.

    Counted in Spark (one row per training item comes back), as arrays of
    ``n_items`` entries that travel to the workers with the function.
    """
    from ._recommend import _beyond

    _, F, _ = _pyspark()
    per_item = _collect_columns(
        train.join(codes, _I).groupBy("code").agg(
            F.count("*").alias("interactions"),
            F.countDistinct(_U).alias("users")))
    n_users = train.agg(F.countDistinct(_U)).first()[0]
    interactions = np.zeros(n_items, dtype=np.int64)
    users = np.zeros(n_items, dtype=np.int64)
    code = np.asarray(per_item["code"], dtype=np.int64)
    interactions[code] = per_item["interactions"]
    users[code] = per_item["users"]
    return _beyond.Popularity(interactions, users, int(n_users))


def _user_chunks(batches, rows_per_call):
    """Column dicts of whole users from a partition sorted by user.

    Batches are buffered up to ``rows_per_call`` rows; the rows of the last
    user of the buffer wait for the next call (its list may go on).
    """
    import pyarrow as pa

    buffer, buffered = [], 0

    def columns(table):
        return {name: table.column(name).to_numpy() for name in table.column_names}

    for batch in batches:
        if batch.num_rows == 0:
            continue
        buffer.append(batch)
        buffered += batch.num_rows
        if buffered < rows_per_call:
            continue
        table = pa.Table.from_batches(buffer)
        users = table.column(_U).to_numpy()
        cut = table.num_rows - int(np.count_nonzero(users == users[-1]))
        if cut > 0:
            yield columns(table.slice(0, cut))
            buffer = table.slice(cut).to_batches()
            buffered = table.num_rows - cut
    if buffered:
        yield columns(pa.Table.from_batches(buffer))


def _beyond_udf(cutoffs, n_items, popularity, rows_per_call, user_type):
    """mapInArrow function: the beyond-accuracy partials of one partition.

    Output rows: per cutoff, one row per item with a non-zero expected count
    (``item``, then ``s0..s2``: its count, sure count and ``sum log(1 - m)``
    over the partition) and one row per user (``user``, then ``s0..s3``: the
    first four ``_beyond.USER_STATS``); or one row with ``error``.
    """
    from ._recommend import _beyond

    def udf(batches):
        import pyarrow as pa

        names = ["k", "item", "user", "s0", "s1", "s2", "s3", "error"]

        def batch(k, item, user, stats, error=None):
            n = len(k)
            return pa.RecordBatch.from_arrays(
                [pa.array(k, type=pa.int64()), pa.array(item, type=pa.int64()),
                 pa.array(user, type=user_type)]
                + [pa.array(s, type=pa.float64()) for s in stats]
                + [pa.array([error] * n, type=pa.string())], names=names)

        items = {kk: np.zeros((3, n_items)) for kk in cutoffs}
        try:
            for cols in _user_chunks(batches, rows_per_call):
                users = cols[_U]
                first = np.ones(users.shape[0], dtype=bool)
                first[1:] = users[1:] != users[:-1]
                code = np.cumsum(first) - 1
                for kk in cutoffs:
                    m = _beyond.membership(code, cols[_S], k=kk)
                    parts = _beyond.partials(code, cols["code"], m, n_items=n_items,
                                             popularity=popularity)
                    items[kk] += (parts.item_count, parts.item_sure,
                                  parts.item_log_miss)
                    n = parts.user.shape[0]
                    yield batch([kk] * n, [None] * n, users[first],
                                list(parts.user_stats[:4]))
        except (ValueError, TypeError) as exc:
            yield batch([None], [None], [None], [[np.nan]] * 4,
                        f"{type(exc).__name__}:{exc}")
            return
        for kk, vectors in items.items():
            nonzero = np.flatnonzero(vectors[0] > 0)
            n = nonzero.shape[0]
            yield batch([kk] * n, nonzero, [None] * n,
                        [*vectors[:, nonzero], np.full(n, np.nan)])

    return udf


def _beyond_values(rec, beyond, codes, n_items, popularity):
    """``{name: value}`` of the beyond-accuracy metrics: one Spark job.

    The lists' rows are shuffled by user (each user in one partition), their
    items coded by a join with ``codes``; each partition sends back its
    per-item sums and per-user columns, the per-item sums are added in Spark
    (``groupBy``), and ``_beyond.finalize`` turns them into the metrics.
    """
    from ._recommend import _beyond

    _, F, T = _pyspark()
    user_type = dict((f.name, f.dataType) for f in rec.schema.fields)[_U]
    cutoffs = sorted({b[2] for b in beyond})
    from pyspark.sql.pandas.types import to_arrow_type

    rows = (rec.join(codes, _I).select(_U, "code", _S)
            .repartition(F.col(_U)).sortWithinPartitions(_U))
    schema = T.StructType(
        [T.StructField("k", T.LongType()), T.StructField("item", T.LongType()),
         T.StructField("user", user_type)]
        + [T.StructField(f"s{j}", T.DoubleType()) for j in range(4)]
        + [T.StructField("error", T.StringType())])
    out = rows.mapInArrow(
        _beyond_udf(cutoffs, n_items, popularity, _ROWS_PER_CALL,
                    to_arrow_type(user_type)), schema)
    # item rows summed over partitions; a user's rows are one row already
    summed = out.groupBy("k", "item", "user").agg(
        *(F.sum(f"s{j}").alias(f"s{j}") for j in range(4)),
        F.max("error").alias("error"))
    cols = _collect_columns(summed)
    errors = [e for e in cols["error"] if isinstance(e, str)]
    if errors:
        kind, _, message = errors[0].partition(":")
        raise (TypeError if kind == "TypeError" else ValueError)(message)
    k_col = np.asarray(cols["k"], dtype=np.int64)
    is_item = ~_is_null(cols["item"])
    values = {}
    for kk in cutoffs:
        at = k_col == kk
        sel = at & is_item
        vectors = np.zeros((3, n_items))
        vectors[:, np.asarray(cols["item"][sel], dtype=np.int64)] = [
            np.asarray(cols[f"s{j}"][sel], dtype=np.float64) for j in range(3)]
        sel = at & ~is_item
        n_users = int(sel.sum())
        stats = np.full((len(_beyond.USER_STATS), n_users), np.nan)
        stats[:4] = [np.asarray(cols[f"s{j}"][sel], dtype=np.float64)
                     for j in range(4)]
        parts = _beyond.BeyondPartials(*vectors, np.arange(n_users), stats,
                                       popularity is not None, False)
        values.update(_beyond.finalize(parts, k=kk))
    return {name: values[name] for name, _, _ in beyond}


def _is_null(values):
    values = np.asarray(values)
    if values.dtype.kind == "f":
        return np.isnan(values)
    return np.array([v is None for v in values], dtype=bool)


def recommendation_report(df_rec, df_held, *, k=10, metrics=None, train=None,
                          n_items=None, users="held_out", user="user", item="item",
                          score=None, relevance=None, output="dict"):
    """Metrics of top-N recommendation lists in Spark DataFrames.

    The values of :func:`sklearn_rankeval.recommendation_report` on the
    collected rows (to 1e-12), computed in Spark: the long layout that the
    lists define is built with joins (each recommended row with its held-out
    gain or 0, and a row scored ``-inf`` for every held-out item not
    recommended), its accuracy metrics are those of :func:`ranking_report`,
    and the beyond-accuracy metrics are summed from the partial statistics
    of each partition of users.  Only a few rows per user and per item come
    back to the driver.

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
        The users averaged: those with a held-out item, those with a list, or
        both.
    user : str, default='user'
        Column name of the user ids (string or integer) in every frame.
    item : str, default='item'
        Column name of the item ids (string or integer) in every frame.
    score : str, default=None
        Score column of ``df_rec``; None: ``"score"`` if present, else the
        row order is the rank.
    relevance : str, default=None
        Gain column of ``df_held``; None: ``"relevance"`` if present, else 1.
    output : {'dict', 'frame', 'text'}, default='dict'
        ``{metric: value}``, a tidy pandas DataFrame (``metric``, ``value``)
        or the text table of the in-memory function.

    Returns
    -------
    report : dict, pandas.DataFrame or str
        By ``output``.

    Raises
    ------
    ValueError
        A column that does not exist, a repeated (user, item) pair, a null
        id, a NaN or ``+inf`` score, a negative or NaN relevance, ``ild@K``
        or a metric ``novelty@K`` / ``arp@K`` / ``long_tail@K`` without
        ``train``.
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

    Cost: a few Spark jobs: one check of each input frame (a shuffle by
    (user, item) pair), a full outer join of the lists with the held-out
    rows and the accuracy pass of :func:`ranking_report` (one shuffle by
    user); with beyond-accuracy metrics, the distinct items coded by a window
    over the catalog, the training popularity counted per item (one row per
    item to the driver, shipped to the workers with the function), and one
    shuffle of the lists by user.  The driver receives one row per user for
    each metric family and one row per item for each cutoff.

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
    >>> recommendation_report(rec, held, k=2,  # doctest: +SKIP
    ...     metrics=["precision@2", "recall@2", "coverage@2"])
    {'precision@2': 0.25, 'recall@2': 0.5, 'coverage@2': 0.6}
    """
    _, F, _ = _pyspark()
    k = check_k(k, allow_none=False)
    check_option(users, "users", USERS)
    check_option(output, "output", ("dict", "frame", "text"))
    accuracy, beyond, order = _split_metrics(metrics, k)
    names = {b[1] for b in beyond}
    if "ild" in names:
        raise ValueError("ild@K is not computed by sklearn_rankeval.spark."
                         "recommendation_report (it needs item features on every "
                         "worker); use sklearn_rankeval.recommendation_report.")
    from ._recommend import _beyond

    needs_train = bool(names & set(_beyond.NEEDS_POPULARITY))
    if needs_train and train is None:
        raise ValueError("novelty@K, arp@K and long_tail@K need train= "
                         "(the training interactions).")
    score = _rec_columns(df_rec, "df_rec", user, item, score, "score", "score")
    relevance = _rec_columns(df_held, "df_held", user, item, relevance,
                             "relevance", "relevance")
    if train is not None:
        _rec_columns(train, "train", user, item, None, None, "")
    if n_items is not None:
        n_items = check_positive_int(n_items, "n_items", allow_none=False)

    ids = [F.col(_quoted(user)).alias(_U), F.col(_quoted(item)).alias(_I)]
    # without a score, the frame's order: minus a position increasing in it
    s = (F.col(_quoted(score)) if score is not None
         else -F.monotonically_increasing_id()).cast("double")
    rec = df_rec.select(*ids, s.alias(_S))
    held = df_held.select(*ids, (F.col(_quoted(relevance)).cast("double")
                                 if relevance is not None else F.lit(1.0)).alias(_T))
    _check_rows(rec, "df_rec", pairs=True, value_rule=(
        F.isnan(_S) | F.col(_S).isNull() | (F.col(_S) == float("inf")),
        "df_rec: the score column contains NaN, null or +inf."))
    _check_rows(held, "df_held", pairs=True, value_rule=(
        F.isnan(_T) | F.col(_T).isNull() | (F.col(_T) < 0)
        | (F.col(_T) == float("inf")),
        "df_held: the relevance must be finite and >= 0 (negative or NaN found)."))
    tr = None
    if train is not None:
        tr = train.select(*ids)
        _check_rows(tr, "train", pairs=False)

    if users == "held_out":
        rec = rec.join(held.select(_U).distinct(), _U, "left_semi")
    elif users == "recommended":
        held = held.join(rec.select(_U).distinct(), _U, "left_semi")

    out = {}
    if accuracy:
        long = rec.join(held, [_U, _I], "full_outer").select(
            _U, F.coalesce(_T, F.lit(0.0)).alias(_T),
            F.coalesce(_S, F.lit(float("-inf"))).alias(_S))
        out.update(reduce_partials(*_partials(long, _T, _S, _U, None, accuracy)))
    n_catalog = None
    if beyond or n_items is not None:
        frames = [f for f in (df_rec.select(ids[1]), df_held.select(ids[1]),
                              None if tr is None else tr) if f is not None]
        codes = _item_codes(frames).persist()
        try:
            n_distinct = codes.count()
            if n_items is not None and n_items < n_distinct:
                raise ValueError(f"n_items={n_items} is smaller than the "
                                 f"{n_distinct} distinct items of df_rec, df_held "
                                 "and train.")
            n_catalog = n_items if n_items is not None else max(n_distinct, 1)
            if beyond:
                popularity = (_train_popularity(tr, codes, n_catalog)
                              if needs_train else None)
                out.update(_beyond_values(rec, beyond, codes, n_catalog,
                                          popularity))
        finally:
            codes.unpersist()
    out = {name: out[name] for name in order}
    return _format(out, output, n_catalog if beyond else None)
